package dev.sluice.transport.frontend;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * HTTP/1.0 requests as the HTTP/1.1 requests they mean, for Helidon, which answers 505 to every HTTP/1.0 request
 * (its prologue parser accepts {@code HTTP/1.1} only, with no option to change it). ApacheBench and HAProxy's
 * health checks speak HTTP/1.0. A 1.0 head gets the version {@code HTTP/1.1}, a {@code Host: localhost} if it has
 * no {@code Host} (1.0 does not require one, 1.1 does), and {@code Connection: close} unless it asked for
 * {@code Connection: keep-alive} (1.0's default is to close). The answer carries Helidon's {@code HTTP/1.1} status
 * line, which RFC 9110 allows a server to send a 1.0 client; a streamed answer (SSE) is chunked, which a 1.0 client
 * does not decode. Other versions pass through unchanged. One per connection; used from its thread only.
 */
final class Http10Requests {
    private static final byte[] HEAD_END = {'\r', '\n', '\r', '\n'};
    private final int maxHeadBytes;

    Http10Requests(int maxHeadBytes) {
        this.maxHeadBytes = maxHeadBytes;
    }

    /**
     * The first bytes of a request, {@code first} and as many more from {@code more} as it takes to see the request
     * line (and, for an HTTP/1.0 request, the whole head), rewritten when HTTP/1.0. A head that ends early or grows
     * past the limit passes as it is, for Helidon to refuse.
     */
    byte[] rewrite(byte[] first, Supplier<byte[]> more) {
        ByteArrayOutputStream seen = new ByteArrayOutputStream(Math.max(first.length, 256));
        seen.writeBytes(first);
        int lineEnd;
        while ((lineEnd = indexOf(seen.toByteArray(), new byte[] {'\n'})) < 0) {
            if (seen.size() > maxHeadBytes || !append(seen, more)) {
                return seen.toByteArray();
            }
        }
        byte[] bytes = seen.toByteArray();
        String line = new String(bytes, 0, lineEnd, StandardCharsets.ISO_8859_1);
        if (!line.endsWith(" HTTP/1.0\r")) {
            return bytes;
        }
        int headEnd;
        while ((headEnd = indexOf(bytes, HEAD_END)) < 0) {
            if (bytes.length > maxHeadBytes || !append(seen, more)) {
                return bytes;
            }
            bytes = seen.toByteArray();
        }
        return rewritten(bytes, headEnd);
    }

    private static boolean append(ByteArrayOutputStream seen, Supplier<byte[]> more) {
        byte[] next = more.get();
        if (next == null) {
            return false;
        }
        seen.writeBytes(next);
        return true;
    }

    private static byte[] rewritten(byte[] bytes, int headEnd) {
        String head = new String(bytes, 0, headEnd, StandardCharsets.ISO_8859_1);
        String[] lines = head.split("\r\n", -1);
        StringBuilder out = new StringBuilder(head.length() + 48);
        out.append(lines[0], 0, lines[0].length() - "1.0".length()).append("1.1\r\n");
        boolean host = false;
        boolean keepAlive = false;
        for (int i = 1; i < lines.length; i++) {
            String lower = lines[i].toLowerCase(Locale.ROOT);
            host |= lower.startsWith("host:");
            keepAlive |= lower.startsWith("connection:") && lower.contains("keep-alive");
            out.append(lines[i]).append("\r\n");
        }
        if (!host) {
            out.append("Host: localhost\r\n");
        }
        if (!keepAlive) {
            out.append("Connection: close\r\n");
        }
        out.append("\r\n");
        ByteArrayOutputStream result = new ByteArrayOutputStream(out.length() + bytes.length - headEnd);
        result.writeBytes(out.toString().getBytes(StandardCharsets.ISO_8859_1));
        result.write(bytes, headEnd + HEAD_END.length, bytes.length - headEnd - HEAD_END.length);
        return result.toByteArray();
    }

    private static int indexOf(byte[] bytes, byte[] pattern) {
        outer:
        for (int i = 0; i + pattern.length <= bytes.length; i++) {
            for (int j = 0; j < pattern.length; j++) {
                if (bytes[i + j] != pattern[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
