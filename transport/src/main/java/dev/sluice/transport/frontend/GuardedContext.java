package dev.sluice.transport.frontend;

import io.helidon.common.buffers.DataReader;
import io.helidon.common.buffers.DataWriter;
import io.helidon.common.socket.HelidonSocket;
import io.helidon.common.socket.PeerInfo;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.ListenerContext;
import io.helidon.webserver.ProxyProtocolData;
import io.helidon.webserver.Router;
import io.helidon.webserver.ServerConnectionException;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;

/**
 * One client connection as Helidon's HTTP/1 connection sees it: Helidon's own context, except that the bytes it reads
 * come through here, so that {@link ConnectionGuard} knows whether the connection waits for bytes and until when it
 * may (its phase: awaiting a request, reading a head, reading a body, answering), and so that an HTTP/1.0 request
 * head is {@linkplain Http10Requests#rewrite rewritten} as the HTTP/1.1 request it means.
 *
 * <p>Read from the connection's own thread; {@link #overdue} from the guard's. The phase moves on reads (here) and on
 * Helidon's receive and send events ({@link #onHeaders}, {@link #onAnswer}), all on the connection's thread.
 */
final class GuardedContext implements ConnectionContext, Supplier<byte[]> {
    private static final long NONE = Long.MAX_VALUE;

    enum Phase { AWAITING, HEAD, BODY, ANSWERING }

    private final ConnectionContext delegate;
    private final ConnectionLimits limits;
    /** The socket's bytes as they come, for a head read by {@link OverCapConnection}. */
    private final DataReader reader;
    /** What Helidon's HTTP/1.1 connection reads through: chunk-size lines read by {@link ChunkedBodyReader}. */
    private final DataReader chunked;
    private final Http10Requests http10;
    private volatile Phase phase = Phase.AWAITING;
    private volatile long deadlineNanos;
    private volatile boolean reading;
    private volatile boolean cut;
    private boolean closeAfterAnswer;

    GuardedContext(ConnectionContext delegate, ConnectionLimits limits, int maxHeadBytes, long nowNanos) {
        this.delegate = delegate;
        this.limits = limits;
        this.http10 = new Http10Requests(maxHeadBytes);
        this.reader = DataReader.create(this);
        this.chunked = new ChunkedBodyReader(reader);
        // The first request's head must arrive within the header timeout of the accept.
        this.deadlineNanos = nowNanos + limits.headerTimeout().toNanos();
    }

    @Override
    public byte[] get() {
        if (phase == Phase.ANSWERING && closeAfterAnswer) {
            // Helidon reads on for a next request after an answer with Connection: close; the client, an HTTP/1.0
            // one above all, waits for the close that ends the answer.
            return null;
        }
        if (phase == Phase.ANSWERING) {
            phase = Phase.AWAITING;
            deadlineNanos = System.nanoTime() + limits.idleTimeout().toNanos();
        }
        boolean requestStart = phase == Phase.AWAITING;
        byte[] bytes = read();
        if (requestStart && bytes != null) {
            phase = Phase.HEAD;
            long headBy = System.nanoTime() + limits.headerTimeout().toNanos();
            deadlineNanos = Math.min(deadlineNanos, headBy);
            bytes = http10.rewrite(bytes, this::read);
        }
        return bytes;
    }

    /** One read from the socket, marked as waiting for the guard. */
    private byte[] read() {
        reading = true;
        try {
            return delegate.serverSocket().get();
        } catch (UncheckedIOException e) {
            throw new ServerConnectionException("Failed to get data from socket", e);
        } finally {
            reading = false;
        }
    }

    /**
     * The request's headers are in: its body (if any) must follow within the body timeout; with {@code close} (it
     * asked for {@code Connection: close}) the connection ends after the answer.
     */
    void onHeaders(boolean close) {
        closeAfterAnswer = close;
        phase = Phase.BODY;
        deadlineNanos = System.nanoTime() + limits.bodyTimeout().toNanos();
    }

    /** The answer has started: no deadline until the connection next reads (for the next request). */
    void onAnswer() {
        phase = Phase.ANSWERING;
        deadlineNanos = NONE;
    }

    /** The answer's headers are out: with {@code Connection: close}, the connection ends after it. */
    void onAnswerHeaders(boolean close) {
        closeAfterAnswer |= close;
    }

    /** Whether the connection waits for bytes past its phase's deadline. Any thread. */
    boolean overdue(long nowNanos) {
        return reading && nowNanos - deadlineNanos > 0 && deadlineNanos != NONE;
    }

    /** Closes the socket, which ends a read blocked on it; once. Any thread. */
    void cut() {
        if (cut) {
            return;
        }
        cut = true;
        try {
            delegate.serverSocket().close();
        } catch (RuntimeException e) {
            // Closed already (the client left, or Helidon closed it): nothing left to end.
        }
    }

    Phase phase() {
        return phase;
    }

    /** The socket's bytes without chunked-body checks: a head read line by line, never a body. */
    DataReader headReader() {
        return reader;
    }

    @Override
    public DataReader dataReader() {
        return chunked;
    }

    @Override
    public ListenerContext listenerContext() {
        return delegate.listenerContext();
    }

    @Override
    public ExecutorService executor() {
        return delegate.executor();
    }

    @Override
    public DataWriter dataWriter() {
        return delegate.dataWriter();
    }

    @Override
    public Router router() {
        return delegate.router();
    }

    @Override
    public Optional<ProxyProtocolData> proxyProtocolData() {
        return delegate.proxyProtocolData();
    }

    @Override
    public HelidonSocket serverSocket() {
        return delegate.serverSocket();
    }

    @Override
    public PeerInfo remotePeer() {
        return delegate.remotePeer();
    }

    @Override
    public PeerInfo localPeer() {
        return delegate.localPeer();
    }

    @Override
    public boolean isSecure() {
        return delegate.isSecure();
    }

    @Override
    public String socketId() {
        return delegate.socketId();
    }

    @Override
    public String childSocketId() {
        return delegate.childSocketId();
    }
}
