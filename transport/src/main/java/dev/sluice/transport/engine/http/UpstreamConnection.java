package dev.sluice.transport.engine.http;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;

/**
 * One blocking HTTP/1.1 connection to an engine, for one {@code GET}: the request goes out in one write; the answer
 * is read into one read buffer, its head parsed there ({@link ResponseHead}) and its body ({@code Content-Length},
 * chunked or to the close) decoded there and handed to a {@link BodySink} slice by slice. Not thread-safe: its
 * caller owns it; {@link #close} may come from any thread.
 */
final class UpstreamConnection implements AutoCloseable {
    /** The read buffer, and so the largest answer head taken. */
    static final int BUFFER_BYTES = 16 * 1024;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final byte[] buffer = new byte[BUFFER_BYTES];
    private final ResponseHead head = new ResponseHead();
    private final ChunkedDecoder chunked = new ChunkedDecoder();
    private int position;
    private int limit;
    /** Bytes of the answer read since the request was sent. */
    private long received;
    /** The body left to read when framed by its length. */
    private long remaining;
    private boolean bodyEnded;
    private volatile boolean closed;

    /** A connection over {@code socket}, already connected. */
    UpstreamConnection(Socket socket) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    /** Writes {@code request} in one write. */
    void send(byte[] request) throws IOException {
        position = 0;
        limit = 0;
        received = 0;
        bodyEnded = false;
        out.write(request);
    }

    /**
     * Reads the answer's head (skipping interim {@code 1xx} answers).
     *
     * @throws EOFException              if the engine closed the connection first.
     * @throws UpstreamProtocolException if the head is malformed or over {@value #BUFFER_BYTES} bytes.
     */
    ResponseHead readHead() throws IOException {
        while (true) {
            int end;
            while ((end = ResponseHead.end(buffer, position, limit)) < 0) {
                if (position > 0) {
                    System.arraycopy(buffer, position, buffer, 0, limit - position);
                    limit -= position;
                    position = 0;
                }
                if (limit == buffer.length) {
                    throw new UpstreamProtocolException("the engine's answer head is over " + BUFFER_BYTES / 1024
                        + " KiB");
                }
                if (read(limit) < 0) {
                    throw new EOFException(received == 0 ? "the engine closed the connection without answering"
                        : "the engine closed the connection in the middle of its answer's head");
                }
            }
            head.parse(buffer, position, end);
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

    /** Reads the body, handing it to {@code sink} until it ends, the sink asks to stop, or the engine closes. */
    private void readBody(BodySink sink) throws IOException {
        while (!bodyEnded) {
            if (position == limit && read(0) < 0) {
                return;
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
                    position = chunked.decode(buffer, position, limit, sink);
                    bodyEnded = chunked.done();
                    more = !chunked.stopped();
                }
                default -> {
                    more = sink.onBody(buffer, position, limit - position);
                    position = limit;
                }
            }
            if (!more) {
                return;
            }
        }
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

    /** Reads into the buffer from {@code at}; -1 at the end of the stream. */
    private int read(int at) throws IOException {
        if (at == 0) {
            position = 0;
            limit = 0;
        }
        int n = in.read(buffer, at, buffer.length - at);
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
