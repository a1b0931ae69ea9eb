package dev.sluice.transport.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * HTTP/1.1 over a plain socket, for tests that must send what no well-behaved client sends: partial requests, one
 * byte at a time, invalid bytes, and connections dropped at chosen points. Loopback only; every read is bounded by
 * a socket timeout. Stateless; thread-safe.
 */
public final class RawHttp {
    /** The status when the server closed the connection without answering. */
    public static final int CLOSED = -1;
    private static final int READ_TIMEOUT_MS = 20_000;

    private RawHttp() {
    }

    /** A {@code POST} with {@code Connection: close} and a {@code Content-Length} of the body. */
    public static byte[] post(String path, Map<String, String> headers, byte[] body) {
        StringBuilder head = new StringBuilder("POST ").append(path).append(" HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            .append("Content-Type: application/json\r\nConnection: close\r\nContent-Length: ").append(body.length)
            .append("\r\n");
        headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        byte[] prologue = head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
        byte[] request = new byte[prologue.length + body.length];
        System.arraycopy(prologue, 0, request, 0, prologue.length);
        System.arraycopy(body, 0, request, prologue.length, body.length);
        return request;
    }

    /** Sends {@code request} and reads the whole answer; {@link Response#status} is {@link #CLOSED} if none. */
    public static Response exchange(int port, byte[] request) throws IOException {
        return exchange(port, request, request.length, 0);
    }

    /**
     * Sends {@code request} in pieces of {@code chunk} bytes, pausing {@code pauseNanos} between them, then reads the
     * whole answer.
     */
    public static Response exchange(int port, byte[] request, int chunk, long pauseNanos) throws IOException {
        try (Socket socket = connect(port)) {
            OutputStream out = socket.getOutputStream();
            for (int at = 0; at < request.length; at += chunk) {
                out.write(request, at, Math.min(chunk, request.length - at));
                out.flush();
                if (pauseNanos > 0) {
                    LockSupport.parkNanos(pauseNanos);
                }
            }
            return read(socket.getInputStream(), Integer.MAX_VALUE);
        }
    }

    /** Sends the first {@code bytes} of {@code request}, then closes the connection without reading. */
    public static void sendAndDrop(int port, byte[] request, int bytes) throws IOException {
        try (Socket socket = connect(port)) {
            socket.getOutputStream().write(request, 0, Math.min(bytes, request.length));
            socket.getOutputStream().flush();
        }
    }

    /**
     * Sends {@code request}, reads at most {@code bytes} of the answer (0: none at all, after waiting
     * {@code waitNanos}), then closes the connection: a client that goes away mid-stream or never reads.
     */
    public static Response sendAndLeave(int port, byte[] request, int bytes, long waitNanos) throws IOException {
        try (Socket socket = connect(port)) {
            socket.getOutputStream().write(request);
            socket.getOutputStream().flush();
            if (bytes == 0) {
                LockSupport.parkNanos(waitNanos);
                return new Response(CLOSED, "");
            }
            return read(socket.getInputStream(), bytes);
        }
    }

    /**
     * Sends {@code request} and waits for the first {@code bytes} of the answer, keeping the connection open: a
     * request in flight, to be read to its end ({@link Held#finish}) or dropped ({@link Held#close}) later.
     */
    public static Held hold(int port, byte[] request, int bytes) throws IOException {
        Socket socket = connect(port);
        try {
            socket.getOutputStream().write(request);
            socket.getOutputStream().flush();
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            read(socket.getInputStream(), answer, bytes);
            return new Held(socket, answer);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /** A connection whose answer has started; see {@link #hold}. Not thread-safe. */
    public static final class Held implements AutoCloseable {
        private final Socket socket;
        private final ByteArrayOutputStream answer;

        private Held(Socket socket, ByteArrayOutputStream answer) {
            this.socket = socket;
            this.answer = answer;
        }

        /** The answer so far. */
        public String started() {
            return answer.toString(StandardCharsets.UTF_8);
        }

        /** Reads the answer to its end and closes the connection. */
        public Response finish() throws IOException {
            try (socket) {
                return read(socket.getInputStream(), answer, Integer.MAX_VALUE);
            }
        }

        /** Drops the connection, the answer unread. */
        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    /** Everything the server sends until it closes (or resets) the connection; a read timeout fails the test. */
    public static String readToEnd(InputStream in) throws IOException {
        ByteArrayOutputStream answer = new ByteArrayOutputStream();
        byte[] buffer = new byte[4096];
        try {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                answer.write(buffer, 0, n);
            }
        } catch (java.net.SocketTimeoutException e) {
            throw e;
        } catch (IOException e) {
            // A reset after the close: what was read stands.
        }
        return answer.toString(StandardCharsets.UTF_8);
    }

    private static Socket connect(int port) throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setSoTimeout(READ_TIMEOUT_MS);
        socket.setReceiveBufferSize(4096);
        return socket;
    }

    private static Response read(InputStream in, int limit) throws IOException {
        return read(in, new ByteArrayOutputStream(), limit);
    }

    private static Response read(InputStream in, ByteArrayOutputStream answer, int limit) throws IOException {
        byte[] buffer = new byte[8192];
        try {
            int n;
            while (answer.size() < limit && !complete(answer.toString(StandardCharsets.ISO_8859_1))
                && (n = in.read(buffer, 0, Math.min(buffer.length, limit - answer.size()))) > 0) {
                answer.write(buffer, 0, n);
            }
        } catch (SocketTimeoutException e) {
            throw e;
        } catch (IOException e) {
            // A reset after the server answered and closed still leaves the answer read so far.
        }
        String text = answer.toString(StandardCharsets.UTF_8);
        if (!text.startsWith("HTTP/1.1 ") || text.length() < 12) {
            return new Response(CLOSED, text);
        }
        return new Response(Integer.parseInt(text.substring(9, 12)), text);
    }

    /** Whether {@code text} holds a whole answer: the head and a body of its length, or a last chunk. */
    private static boolean complete(String text) {
        int end = text.indexOf("\r\n\r\n");
        if (end < 0) {
            return false;
        }
        String head = text.substring(0, end).toLowerCase(Locale.ROOT);
        int length = head.indexOf("content-length: ");
        if (length >= 0) {
            int eol = head.indexOf("\r\n", length);
            int expected = Integer.parseInt(head.substring(length + 16, eol < 0 ? head.length() : eol).trim());
            return text.length() - end - 4 >= expected;
        }
        return head.contains("transfer-encoding: chunked") && text.endsWith("\r\n0\r\n\r\n");
    }

    /** A status ({@link #CLOSED} when the server answered nothing) and the raw answer, head and body. */
    public record Response(int status, String text) {
        /** The body after the blank line; empty when there is none. */
        public String body() {
            int end = text.indexOf("\r\n\r\n");
            return end < 0 ? "" : text.substring(end + 4);
        }

        /** The first value of header {@code name} (any case), or {@code null}. */
        public String header(String name) {
            int end = text.indexOf("\r\n\r\n");
            for (String line : (end < 0 ? text : text.substring(0, end)).split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                    return line.substring(colon + 1).trim();
                }
            }
            return null;
        }
    }
}
