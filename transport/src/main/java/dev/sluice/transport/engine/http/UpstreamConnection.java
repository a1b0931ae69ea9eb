package dev.sluice.transport.engine.http;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;

/**
 * One HTTP/1.1 connection to an engine, used by one request at a time with blocking socket I/O: the request goes
 * out in one write from its {@link RequestBuffer}; the answer is read into one read buffer kept for the connection's
 * life, its head parsed there ({@link ResponseHead}) and its body ({@code Content-Length}, chunked or to the close)
 * decoded there and handed to a {@link BodySink} slice by slice, with no allocation per read. A connection whose
 * answer was read to its end, on which no I/O failed and that the engine keeps alive, may carry the next request
 * ({@link #reusable}). A reader virtual thread interrupted in a read or write gets an exception and the socket is
 * closed. Not thread-safe: the request that holds it owns it; {@link #close} may come from any thread.
 */
final class UpstreamConnection implements AutoCloseable {
    /** The read buffer, and so the largest answer head taken. */
    static final int BUFFER_BYTES = 16 * 1024;

    /** How a read of the body ended. */
    enum BodyEnd {
        /** The body was read to its end. */
        ENDED,
        /** The sink asked to stop; the rest of the body is still to be read. */
        STOPPED,
        /** The engine closed the connection before the body's end. */
        CUT
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final byte[] buffer = new byte[BUFFER_BYTES];
    private final ResponseHead head = new ResponseHead();
    private final ChunkedDecoder chunked = new ChunkedDecoder();
    private RequestBuffer request = new RequestBuffer();
    private int position;
    private int limit;
    /** Bytes of the answer read since the request was sent. */
    private long received;
    /** The body left to read when framed by its length. */
    private long remaining;
    private boolean bodyEnded;
    private boolean broken;
    private boolean reused;
    private volatile boolean closed;

    /** A connection over {@code socket}, already connected. */
    UpstreamConnection(Socket socket) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    /** The buffer for the next request, to be filled and then {@linkplain #send sent}. */
    RequestBuffer request() {
        return request;
    }

    /** Takes over the request written on {@code other} (to send it again on this one), giving it this one's buffer. */
    void takeRequest(UpstreamConnection other) {
        RequestBuffer mine = request;
        request = other.request;
        other.request = mine;
    }

    /** The socket, for its options. */
    Socket socket() {
        return socket;
    }

    /** Sets how long a read may block ({@code 0}: without limit). */
    void readTimeout(int millis) throws IOException {
        socket.setSoTimeout(millis);
    }

    /** Writes the request in one write. */
    void send() throws IOException {
        position = 0;
        limit = 0;
        received = 0;
        bodyEnded = false;
        try {
            out.write(request.array(), request.start(), request.length());
        } catch (IOException | RuntimeException e) {
            broken = true;
            throw e;
        }
    }

    /**
     * Reads the answer's head (skipping interim {@code 1xx} answers).
     *
     * @param noBody whether the request's answer has no body whatever its headers say.
     * @throws EOFException              if the engine closed the connection first.
     * @throws UpstreamProtocolException if the head is malformed or over {@value #BUFFER_BYTES} bytes.
     */
    ResponseHead readHead(boolean noBody) throws IOException {
        while (true) {
            int end;
            while ((end = ResponseHead.end(buffer, position, limit)) < 0) {
                if (position > 0) {
                    System.arraycopy(buffer, position, buffer, 0, limit - position);
                    limit -= position;
                    position = 0;
                }
                if (limit == buffer.length) {
                    broken = true;
                    throw new UpstreamProtocolException("the engine's answer head is over " + BUFFER_BYTES / 1024
                        + " KiB");
                }
                if (read(limit) < 0) {
                    broken = true;
                    throw new EOFException(received == 0 ? "the engine closed the connection without answering"
                        : "the engine closed the connection in the middle of its answer's head");
                }
            }
            try {
                head.parse(buffer, position, end, noBody);
            } catch (UpstreamProtocolException e) {
                broken = true;
                throw e;
            }
            position = end;
            if (head.status() >= 200 || head.status() == 101) {
                break;
            }
        }
        remaining = head.contentLength();
        chunked.reset();
        bodyEnded = head.framing() == ResponseHead.Framing.LENGTH && remaining == 0;
        return head;
    }

    /** The head of the answer last read by {@link #readHead}. */
    ResponseHead head() {
        return head;
    }

    /** Bytes of the answer read since the request was sent: 0 when the engine sent nothing. */
    long received() {
        return received;
    }

    /** Reads the body, handing it to {@code sink} until it ends, the sink asks to stop, or the engine closes. */
    BodyEnd readBody(BodySink sink) throws IOException {
        while (!bodyEnded) {
            if (position == limit && read(0) < 0) {
                if (head.framing() == ResponseHead.Framing.CLOSE) {
                    bodyEnded = true;
                    return BodyEnd.ENDED;
                }
                broken = true;
                return BodyEnd.CUT;
            }
            boolean more;
            switch (head.framing()) {
                case LENGTH -> {
                    int n = (int) Math.min(remaining, limit - position);
                    remaining -= n;
                    bodyEnded = remaining == 0;
                    more = sink.onBody(buffer, position, n);
                    position += n;
                }
                case CHUNKED -> {
                    try {
                        position = chunked.decode(buffer, position, limit, sink);
                    } catch (UpstreamProtocolException e) {
                        broken = true;
                        throw e;
                    }
                    bodyEnded = chunked.done();
                    more = !chunked.stopped();
                }
                default -> {
                    more = sink.onBody(buffer, position, limit - position);
                    position = limit;
                }
            }
            if (!more) {
                break;
            }
        }
        return bodyEnded ? BodyEnd.ENDED : BodyEnd.STOPPED;
    }

    /** Up to {@code max} bytes of the body (fewer when it is shorter); the rest is left unread. */
    byte[] readBody(int max) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream(Math.min(max, 1024));
        readBody((bytes, offset, length) -> {
            int take = Math.min(length, max - body.size());
            body.write(bytes, offset, take);
            return body.size() < max;
        });
        return body.toByteArray();
    }

    /** Reads and drops the rest of the body, at most about {@code max} bytes; whether it ended. */
    boolean skipBody(long max) throws IOException {
        long[] skipped = {0};
        BodyEnd end = readBody((bytes, offset, length) -> (skipped[0] += length) < max);
        return end == BodyEnd.ENDED;
    }

    /** Whether the answer was read to its end, nothing failed and the engine keeps the connection alive. */
    boolean reusable() {
        return !closed && !broken && bodyEnded && head.keepAlive() && position == limit;
    }

    /** Whether this connection has carried a request before the current one. */
    boolean reused() {
        return reused;
    }

    /** Marks the connection as having carried a request (it goes back to the pool). */
    void markReused() {
        reused = true;
    }

    /** Reads into the buffer from {@code at}; -1 at the end of the stream. */
    private int read(int at) throws IOException {
        if (at == 0) {
            position = 0;
            limit = 0;
        }
        int n;
        try {
            n = in.read(buffer, at, buffer.length - at);
        } catch (IOException | RuntimeException e) {
            broken = true;
            throw e;
        }
        if (n > 0) {
            limit = at + n;
            received += n;
        }
        return n;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            socket.close();
        } catch (IOException e) {
            // Nothing more to release.
        }
    }
}
