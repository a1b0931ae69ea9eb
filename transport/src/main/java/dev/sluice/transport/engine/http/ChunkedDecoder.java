package dev.sluice.transport.engine.http;

/**
 * Decodes a {@code Transfer-Encoding: chunked} body in place, in pieces of any size as they are read: the data of
 * each chunk goes to a {@link BodySink} straight from the read buffer, the framing (size lines, their extensions, the
 * CRLF after each chunk's data, the trailer section) is consumed and state kept across pieces, so a size line or a
 * CRLF split between two reads is decoded the same. Lines may end with CRLF or a bare LF. A size that is not hex, too
 * large, or a size line or trailer over its limit fails with a clear message. Reset for each body; not thread-safe:
 * the connection's reader owns it.
 */
final class ChunkedDecoder {
    /** A size line's extensions beyond this, or trailers beyond {@link #MAX_TRAILER_BYTES}, are not a sane answer. */
    static final int MAX_SIZE_LINE_BYTES = 4096;
    static final int MAX_TRAILER_BYTES = 16 * 1024;
    /** Sizes with more hex digits than this overflow a long. */
    private static final int MAX_SIZE_DIGITS = 15;

    private static final int SIZE = 0;
    private static final int EXTENSION = 1;
    private static final int SIZE_LF = 2;
    private static final int DATA = 3;
    private static final int DATA_CR = 4;
    private static final int DATA_LF = 5;
    private static final int TRAILER_START = 6;
    private static final int TRAILER_LINE = 7;
    private static final int TRAILER_LF = 8;
    private static final int LAST_LF = 9;
    private static final int DONE = 10;

    private int state;
    private int digits;
    private long size;
    private int lineBytes;
    private int trailerBytes;
    private boolean stopped;

    /** Starts a new body. */
    void reset() {
        state = SIZE;
        stopped = false;
        digits = 0;
        size = 0;
        lineBytes = 0;
        trailerBytes = 0;
    }

    /** Whether the last chunk and the trailer section have been read: the body has ended. */
    boolean done() {
        return state == DONE;
    }

    /** Whether the last {@link #decode} returned because its sink asked to stop. */
    boolean stopped() {
        return stopped;
    }

    /**
     * Decodes {@code bytes[from, to)}.
     *
     * @return the index after the last byte consumed: {@code to}; or less when the body ended there ({@link #done})
     *         or the sink asked to stop after the data it was just given.
     * @throws UpstreamProtocolException if the bytes are not a chunked body.
     */
    int decode(byte[] bytes, int from, int to, BodySink sink) throws UpstreamProtocolException {
        stopped = false;
        int i = from;
        while (i < to) {
            if (state == DATA) {
                int n = (int) Math.min(size, to - i);
                size -= n;
                if (size == 0) {
                    state = DATA_CR;
                }
                boolean more = sink.onBody(bytes, i, n);
                i += n;
                if (!more) {
                    stopped = true;
                    return i;
                }
                continue;
            }
            if (state == DONE) {
                return i;
            }
            step(bytes[i++]);
        }
        return i;
    }

    /** One byte of framing. */
    private void step(byte b) throws UpstreamProtocolException {
        switch (state) {
            case SIZE -> size(b);
            case EXTENSION -> {
                countLine();
                if (b == '\n') {
                    endSizeLine();
                } else if (b == '\r') {
                    state = SIZE_LF;
                }
            }
            case SIZE_LF -> {
                if (b != '\n') {
                    throw new UpstreamProtocolException(
                        "the engine's chunked answer has a CR without LF in a size line");
                }
                endSizeLine();
            }
            case DATA_CR -> {
                if (b == '\r') {
                    state = DATA_LF;
                } else if (b == '\n') {
                    state = SIZE;
                } else {
                    throw new UpstreamProtocolException("the engine's chunked answer has a chunk longer than its size");
                }
            }
            case DATA_LF -> {
                if (b != '\n') {
                    throw new UpstreamProtocolException("the engine's chunked answer has a chunk longer than its size");
                }
                state = SIZE;
            }
            case TRAILER_START -> trailerStart(b);
            case TRAILER_LINE -> {
                countTrailer();
                if (b == '\n') {
                    state = TRAILER_START;
                } else if (b == '\r') {
                    state = TRAILER_LF;
                }
            }
            case TRAILER_LF -> {
                countTrailer();
                state = b == '\n' ? TRAILER_START : TRAILER_LINE;
            }
            case LAST_LF -> {
                if (b != '\n') {
                    throw new UpstreamProtocolException("the engine's chunked answer does not end with CRLF");
                }
                state = DONE;
            }
            default -> throw new IllegalStateException("chunked decoder in state " + state);
        }
    }

    private void size(byte b) throws UpstreamProtocolException {
        int value = hex(b);
        if (value >= 0) {
            if (++digits > MAX_SIZE_DIGITS) {
                throw new UpstreamProtocolException("the engine's chunked answer has a chunk size over "
                    + MAX_SIZE_DIGITS + " hex digits");
            }
            size = size << 4 | value;
            return;
        }
        if (digits == 0) {
            throw new UpstreamProtocolException("the engine's chunked answer has a chunk size line without a hex size");
        }
        if (b == ';' || b == ' ' || b == '\t') {
            lineBytes = digits;
            state = EXTENSION;
        } else if (b == '\r') {
            state = SIZE_LF;
        } else if (b == '\n') {
            endSizeLine();
        } else {
            throw new UpstreamProtocolException("the engine's chunked answer has a chunk size that is not hex");
        }
    }

    private void endSizeLine() {
        digits = 0;
        lineBytes = 0;
        if (size == 0) {
            state = TRAILER_START;
        } else {
            state = DATA;
        }
    }

    private void trailerStart(byte b) throws UpstreamProtocolException {
        countTrailer();
        if (b == '\n') {
            state = DONE;
        } else if (b == '\r') {
            state = LAST_LF;
        } else {
            state = TRAILER_LINE;
        }
    }

    private void countLine() throws UpstreamProtocolException {
        if (++lineBytes > MAX_SIZE_LINE_BYTES) {
            throw new UpstreamProtocolException("the engine's chunked answer has a chunk size line over "
                + MAX_SIZE_LINE_BYTES + " bytes");
        }
    }

    private void countTrailer() throws UpstreamProtocolException {
        if (++trailerBytes > MAX_TRAILER_BYTES) {
            throw new UpstreamProtocolException("the engine's chunked answer has trailers over "
                + MAX_TRAILER_BYTES / 1024 + " KiB");
        }
    }

    private static int hex(byte b) {
        if (b >= '0' && b <= '9') {
            return b - '0';
        }
        if (b >= 'a' && b <= 'f') {
            return b - 'a' + 10;
        }
        if (b >= 'A' && b <= 'F') {
            return b - 'A' + 10;
        }
        return -1;
    }
}
