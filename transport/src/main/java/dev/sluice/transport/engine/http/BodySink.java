package dev.sluice.transport.engine.http;

/** Where the bytes of an answer's body go as they are decoded, straight from the connection's read buffer. */
@FunctionalInterface
interface BodySink {
    /**
     * The next {@code length} bytes of the body at {@code bytes[offset]}; valid only during the call (the buffer is
     * read into again).
     *
     * @return {@code true} to go on reading, {@code false} to stop after these bytes (the body may be read on later).
     */
    boolean onBody(byte[] bytes, int offset, int length);
}
