package dev.sluice.transport.engine.http;

/**
 * The status line and headers of one HTTP/1.x answer, parsed in place from the connection's read buffer: the status
 * code and how the body is framed. Only the headers that decide those are read ({@code Content-Length},
 * {@code Transfer-Encoding}); the others are skipped
 * without being decoded. Lines may end with CRLF or a bare LF. Reused by its connection for each answer; not
 * thread-safe: the connection's reader owns it.
 */
final class ResponseHead {
    /** How the end of a body is known. */
    enum Framing {
        /** {@code Content-Length} bytes (0 for a status without a body). */
        LENGTH,
        /** {@code Transfer-Encoding: chunked}. */
        CHUNKED,
        /** Neither: the body ends when the engine closes the connection. */
        CLOSE
    }

    private int status;
    private Framing framing;
    private long contentLength;

    /** The status code, 100 to 999. */
    int status() {
        return status;
    }

    Framing framing() {
        return framing;
    }

    /** The body's length when {@link #framing} is {@link Framing#LENGTH}. */
    long contentLength() {
        return contentLength;
    }

    /**
     * Index of the first byte after the head's empty line in {@code bytes[from, to)}, or -1 while the head is not
     * complete there.
     */
    static int end(byte[] bytes, int from, int to) {
        for (int i = from; i < to; i++) {
            if (bytes[i] != '\n') {
                continue;
            }
            if (i + 1 < to && bytes[i + 1] == '\n') {
                return i + 2;
            }
            if (i + 2 < to && bytes[i + 1] == '\r' && bytes[i + 2] == '\n') {
                return i + 3;
            }
        }
        return -1;
    }

    /**
     * Parses the head in {@code bytes[from, to)}, which ends with its empty line (see {@link #end}).
     *
     * @throws UpstreamProtocolException if it is not an HTTP/1.x status line and headers.
     */
    void parse(byte[] bytes, int from, int to) throws UpstreamProtocolException {
        int lineEnd = lineEnd(bytes, from, to);
        statusLine(bytes, from, lineEnd);
        contentLength = -1;
        boolean chunked = false;
        boolean encoded = false;
        int at = lineEnd + 1;
        while (true) {
            lineEnd = lineEnd(bytes, at, to);
            int contentEnd = lineEnd > at && bytes[lineEnd - 1] == '\r' ? lineEnd - 1 : lineEnd;
            if (contentEnd == at) {
                break;
            }
            int colon = colon(bytes, at, contentEnd);
            int value = skipSpaces(bytes, colon + 1, contentEnd);
            int valueEnd = trimEnd(bytes, value, contentEnd);
            if (nameIs(bytes, at, colon, "content-length")) {
                long length = contentLength(bytes, value, valueEnd);
                if (contentLength >= 0 && contentLength != length) {
                    throw new UpstreamProtocolException("the engine's answer has two different Content-Length headers");
                }
                contentLength = length;
            } else if (nameIs(bytes, at, colon, "transfer-encoding")) {
                encoded = true;
                chunked = endsWithToken(bytes, value, valueEnd, "chunked");
            }
            at = lineEnd + 1;
        }
        if (status == 204 || status == 304 || status < 200) {
            framing = Framing.LENGTH;
            contentLength = 0;
        } else if (encoded) {
            // A transfer coding overrides Content-Length; one that does not end in chunked runs to the close.
            framing = chunked ? Framing.CHUNKED : Framing.CLOSE;
        } else {
            framing = contentLength >= 0 ? Framing.LENGTH : Framing.CLOSE;
        }
    }

    /** Reads {@code HTTP/1.x SSS reason}. */
    private void statusLine(byte[] bytes, int from, int lineEnd) throws UpstreamProtocolException {
        int end = lineEnd > from && bytes[lineEnd - 1] == '\r' ? lineEnd - 1 : lineEnd;
        if (end - from < 12 || !ascii(bytes, from, "HTTP/1.") || !digit(bytes[from + 7]) || bytes[from + 8] != ' '
            || !digit(bytes[from + 9]) || !digit(bytes[from + 10]) || !digit(bytes[from + 11])
            || end - from > 12 && bytes[from + 12] != ' ' || bytes[from + 9] == '0') {
            throw new UpstreamProtocolException("the engine's answer does not start with an HTTP/1.x status line");
        }
        status = (bytes[from + 9] - '0') * 100 + (bytes[from + 10] - '0') * 10 + bytes[from + 11] - '0';
    }

    private static int lineEnd(byte[] bytes, int from, int to) throws UpstreamProtocolException {
        for (int i = from; i < to; i++) {
            if (bytes[i] == '\n') {
                return i;
            }
        }
        throw new UpstreamProtocolException("the engine's answer head ends without an empty line");
    }

    private static int colon(byte[] bytes, int from, int to) throws UpstreamProtocolException {
        for (int i = from; i < to; i++) {
            byte b = bytes[i];
            if (b == ':') {
                if (i == from) {
                    break;
                }
                return i;
            }
            if (b <= ' ' || b >= 127) {
                break;
            }
        }
        throw new UpstreamProtocolException("the engine's answer has a malformed header line");
    }

    private static long contentLength(byte[] bytes, int from, int to) throws UpstreamProtocolException {
        if (from == to || to - from > 18) {
            throw new UpstreamProtocolException("the engine's answer has an invalid Content-Length");
        }
        long length = 0;
        for (int i = from; i < to; i++) {
            if (!digit(bytes[i])) {
                throw new UpstreamProtocolException("the engine's answer has an invalid Content-Length");
            }
            length = length * 10 + bytes[i] - '0';
        }
        return length;
    }

    private static boolean nameIs(byte[] bytes, int from, int to, String lowerName) {
        if (to - from != lowerName.length()) {
            return false;
        }
        for (int i = 0; i < lowerName.length(); i++) {
            if (lower(bytes[from + i]) != lowerName.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** Whether the last element of the comma-separated list in {@code bytes[from, to)} is {@code token}. */
    private static boolean endsWithToken(byte[] bytes, int from, int to, String token) {
        int start = from;
        for (int i = from; i < to; i++) {
            if (bytes[i] == ',') {
                start = i + 1;
            }
        }
        int s = skipSpaces(bytes, start, to);
        return nameIs(bytes, s, trimEnd(bytes, s, to), token);
    }

    private static int skipSpaces(byte[] bytes, int from, int to) {
        int i = from;
        while (i < to && (bytes[i] == ' ' || bytes[i] == '\t')) {
            i++;
        }
        return i;
    }

    private static int trimEnd(byte[] bytes, int from, int to) {
        int i = to;
        while (i > from && (bytes[i - 1] == ' ' || bytes[i - 1] == '\t')) {
            i--;
        }
        return i;
    }

    private static boolean ascii(byte[] bytes, int from, String text) {
        for (int i = 0; i < text.length(); i++) {
            if (bytes[from + i] != text.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static boolean digit(byte b) {
        return b >= '0' && b <= '9';
    }

    private static int lower(byte b) {
        return b >= 'A' && b <= 'Z' ? b + ('a' - 'A') : b;
    }
}
