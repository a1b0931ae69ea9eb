package dev.sluice.core.journal;

/**
 * The record types of the journal's binary layout (see {@code FORMAT.md}); the code is the first byte of every
 * record. Codes are part of the format: never renumber, only add.
 */
public enum RecordType {
    HEADER(1),
    ARRIVED(2),
    REFUSED(3),
    CLASSIFIED(4),
    ENQUEUED(5),
    REJECTED(6),
    DISPATCHED(7),
    RESPONDING(8),
    COMPLETED(9),
    ABORTED(10),
    RETRIED(11),
    WORKER_JOINED(12),
    WORKER_LEFT(13),
    /** Added after the first release of format 1; readers that do not know it skip it. */
    KV_EVENT(14),
    /** The writer closed cleanly: the last record of a run that was not cut short. Added like KV_EVENT. */
    CLOSED(15),
    /** An engine's report of its own load. Added like KV_EVENT. */
    WORKER_LOAD(16),
    /** A reloaded router policy took effect. Added like KV_EVENT. */
    POLICY_RELOADED(17);

    private static final RecordType[] BY_CODE = new RecordType[18];

    static {
        for (RecordType type : values()) {
            BY_CODE[type.code] = type;
        }
    }

    private final byte code;

    RecordType(int code) {
        this.code = (byte) code;
    }

    /** The byte that starts records of this type. */
    public byte code() {
        return code;
    }

    /** The type with this code, or {@code null} for a code this version does not know. */
    public static RecordType of(int code) {
        return code > 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
