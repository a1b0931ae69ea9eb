package dev.sluice.transport.engine.http;

import java.io.OutputStream;
import java.util.Arrays;

/**
 * One HTTP request, head and body, in one array, so that it goes out in one write. The body is written first, after
 * room left for the head ({@link #begin}); the head is then written backwards in front of it ({@link #prepend}),
 * once the body's length is known, with no copy of the body. Reused by its connection for each request; not
 * thread-safe: the connection's user owns it.
 */
final class RequestBuffer extends OutputStream {
    private static final byte[] CRLF = {'\r', '\n'};
    private byte[] bytes = new byte[1024];
    /** The first byte of the request, once its head is written. */
    private int start;
    /** Where the body begins (the head ends). */
    private int bodyStart;
    private int end;

    /** Starts a request whose head will take at most {@code headRoom} bytes. */
    RequestBuffer begin(int headRoom) {
        ensure(headRoom);
        start = headRoom;
        bodyStart = headRoom;
        end = headRoom;
        return this;
    }

    /** The bytes written after the head room so far. */
    int bodyLength() {
        return end - bodyStart;
    }

    @Override
    public void write(int b) {
        ensure(end + 1);
        bytes[end++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int offset, int length) {
        ensure(end + length);
        System.arraycopy(b, offset, bytes, end, length);
        end += length;
    }

    /**
     * Writes {@code ascii} in front of what is there.
     *
     * @throws IllegalArgumentException if it has a character a header may not carry (a control character, CR, LF,
     *                                  or beyond ASCII).
     * @throws IllegalStateException    if the head room is used up.
     */
    RequestBuffer prepend(String ascii) {
        room(ascii.length());
        for (int i = ascii.length() - 1; i >= 0; i--) {
            char c = ascii.charAt(i);
            if (c < ' ' && c != '\t' || c >= 127) {
                throw new IllegalArgumentException("a request header may carry only visible ASCII, not U+"
                    + String.format("%04X", (int) c));
            }
            bytes[--start] = (byte) c;
        }
        return this;
    }

    /** Writes {@code ascii} (trusted: the constant parts of a head) in front of what is there. */
    RequestBuffer prepend(byte[] ascii) {
        room(ascii.length);
        start -= ascii.length;
        System.arraycopy(ascii, 0, bytes, start, ascii.length);
        return this;
    }

    /** Writes CRLF in front of what is there. */
    RequestBuffer prependCrlf() {
        return prepend(CRLF);
    }

    /** Writes the decimal digits of {@code value}, at least 0, in front of what is there. */
    RequestBuffer prepend(long value) {
        long rest = value;
        do {
            room(1);
            bytes[--start] = (byte) ('0' + rest % 10);
            rest /= 10;
        } while (rest > 0);
        return this;
    }

    /** The array holding the request, from {@link #start} for {@link #length} bytes. */
    byte[] array() {
        return bytes;
    }

    int start() {
        return start;
    }

    int length() {
        return end - start;
    }

    private void room(int n) {
        if (start - n < 0) {
            throw new IllegalStateException("a request head outgrew the room left for it");
        }
    }

    private void ensure(int capacity) {
        if (capacity > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(capacity, bytes.length * 2));
        }
    }
}
