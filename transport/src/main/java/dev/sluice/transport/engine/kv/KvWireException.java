package dev.sluice.transport.engine.kv;

/** A KV-event message that does not have the shape engines publish; the message says what was wrong and where. */
public final class KvWireException extends Exception {
    private static final long serialVersionUID = 1L;

    public KvWireException(String message) {
        super(message);
    }
}
