package dev.sluice.core.journal;

/** A record's content does not fit its layout (a count or length beyond the bytes left, an unknown enum code). */
final class CorruptRecordException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CorruptRecordException(String message) {
        super(message, null, false, false);
    }
}
