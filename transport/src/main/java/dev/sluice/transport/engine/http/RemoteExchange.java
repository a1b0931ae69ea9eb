package dev.sluice.transport.engine.http;

import dev.sluice.transport.engine.EngineListener;
import dev.sluice.transport.engine.EngineRequest;
import dev.sluice.transport.engine.EngineStream;
import dev.sluice.transport.engine.ErrorKind;
import dev.sluice.transport.engine.FinishReason;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.channel.EventLoop;
import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One request to a remote engine, carried out on one event loop from start to end: POST the prompt (its text, or its
 * token ids) with {@code stream: true} on a connection of that loop, read the event stream as the connection hands it
 * over, and call the listener — one {@code onText} per text delta, then one terminal callback — only on that loop,
 * never from inside {@link HttpEngine#submit} (the exchange starts as a task of its loop). The first-token and
 * stream-idle timeouts are tasks scheduled on the loop. {@link #cancel} and the engine's close may come from any
 * thread: the first abort records why the exchange ended and hands it to the loop, which reads no more of the answer,
 * closes the engine connection the exchange holds (the engine sees the client go; it is never returned to the pool)
 * and reports that reason.
 *
 * <p>Threads: {@link #cancel} and {@link #stop} from any thread; everything else on {@link #loop} only.
 */
final class RemoteExchange implements EngineStream, Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(RemoteExchange.class);
    private static final int RUNNING = 0;
    private static final int CANCELLED = 1;
    private static final int TIMED_OUT = 2;
    private static final int STOPPED = 3;
    private static final int IDLE = 4;
    /** An event line longer than this is not a completion stream; the bound keeps memory in check. */
    private static final int MAX_LINE_BYTES = 1 << 20;
    private static final int MAX_ERROR_BODY_BYTES = 4096;
    private static final int MAX_DRAIN_BYTES = 64 * 1024;

    private final HttpEngine engine;
    private final EngineRequest request;
    private final EngineListener listener;
    private final EventLoop loop;
    private final AtomicInteger abort = new AtomicInteger(RUNNING);

    /** The request's body, kept until the engine begins to answer, in case a stale connection makes it go again. */
    private ByteBuf body;
    private EngineConnection connection;
    private boolean reusedConnection;
    private boolean retried;
    /** The answer's status once its head came, else 0. */
    private int status;
    private byte[] errorBody;
    private int errorLength;
    private CompletionStreamAdapter adapter;
    private SseParser parser;
    private ScheduledFuture<?> firstTokenTimer;
    private ScheduledFuture<?> idleTimer;
    private boolean sawText;
    private long lastTextNs;
    private long delivered;
    private long drained;
    private boolean ended;

    RemoteExchange(HttpEngine engine, EngineRequest request, EngineListener listener, EventLoop loop) {
        this.engine = engine;
        this.request = request;
        this.listener = listener;
        this.loop = loop;
    }

    /** The loop the exchange runs on. */
    EventLoop loop() {
        return loop;
    }

    @Override
    public void cancel() {
        abort(CANCELLED);
    }

    /** The engine is closing: end with an error unless already ended. */
    void stop() {
        abort(STOPPED);
    }

    private void abort(int reason) {
        if (abort.compareAndSet(RUNNING, reason)) {
            // Always as a task, even on the loop: an abort from inside a listener call is reported after it returns.
            loop.execute(this::aborted);
        }
    }

    /** Starts the exchange: the request's body written, the first-token timer set, a connection borrowed. */
    @Override
    public void run() {
        if (ended) {
            return;
        }
        if (abort.get() != RUNNING) {
            endAborted();
            return;
        }
        firstTokenTimer = loop.schedule(this::firstTokenDue, engine.settings().firstTokenTimeout().toNanos(),
            TimeUnit.NANOSECONDS);
        try {
            HttpEngine.checkHeaderValue(request.requestId());
            body = ByteBufAllocator.DEFAULT.buffer(256);
            CompletionBody.write(new ByteBufOutputStream(body), engine.settings().model(), request);
        } catch (IOException | RuntimeException e) {
            LOG.warn("request {} could not be sent to worker {} ({})", request.requestId(), engine.workerId(),
                engine.settings().baseUrl(), e);
            fail(new UpstreamFailure(ErrorKind.FAILED, "the request could not be sent to the engine"));
            return;
        }
        adapter = new CompletionStreamAdapter(this::text);
        parser = new SseParser(adapter, MAX_LINE_BYTES);
        engine.channels().borrow(loop, this);
    }

    /** A connection for the request (pooled, or new): it is sent there unless the exchange ended meanwhile. */
    void lent(EngineConnection lent, boolean reused) {
        if (ended || abort.get() != RUNNING) {
            // Nothing was sent on it: as good as idle. A pending abort's task ends the exchange.
            engine.channels().release(lent.channel());
            return;
        }
        connection = lent;
        reusedConnection = reused;
        lent.send(this, engine.completionRequest(request.requestId(), body.retainedDuplicate()));
    }

    void connectFailed(Throwable cause) {
        if (!ended && abort.get() == RUNNING) {
            fail(UpstreamFailure.beforeResponse(cause, engine.settings().connectTimeout()));
        }
    }

    void onHead(int answerStatus) {
        status = answerStatus;
        releaseBody();
        if (status != 200) {
            errorBody = new byte[MAX_ERROR_BODY_BYTES];
        }
    }

    /** The next bytes of the body, valid only during the call. */
    void onBody(byte[] bytes, int offset, int length) {
        if (ended) {
            drained += length;
            if (drained > MAX_DRAIN_BYTES) {
                // The client has its answer; a body that goes on and on is cut rather than read for the pool.
                abandonConnection();
            }
        } else if (abort.get() != RUNNING) {
            // Aborted (from inside a listener call, say): nothing more is read; the abort's task ends the exchange.
            abandonConnection();
        } else if (errorBody != null) {
            int take = Math.min(length, errorBody.length - errorLength);
            System.arraycopy(bytes, offset, errorBody, errorLength, take);
            errorLength += take;
            if (errorLength == errorBody.length) {
                abandonConnection();
                failWithStatus();
            }
        } else if (!parser.feed(bytes, offset, length)) {
            abandonConnection();
            fail(new UpstreamFailure(ErrorKind.FAILED, "the engine sent an event line over 1 MiB"));
        } else if (ended || abort.get() != RUNNING) {
            // A listener call inside the parser threw (which ended the exchange) or cancelled (whose task ends it).
            abandonConnection();
        } else if (adapter.errorKind() != null) {
            abandonConnection();
            fail(new UpstreamFailure(adapter.errorKind(), adapter.errorMessage()));
        } else if (adapter.done()) {
            // The rest of the body (the end of its chunks) is read for the connection's next request.
            finishStream();
        }
    }

    /** The answer was read to its end; the connection is back in its pool (or closed). */
    void onEnd() {
        connection = null;
        if (ended) {
            return;
        }
        if (abort.get() != RUNNING) {
            endAborted();
        } else if (errorBody != null) {
            failWithStatus();
        } else {
            endOfStream();
        }
    }

    /**
     * The connection closed before the answer ended, because of {@code failure} or ({@code null}) the engine's close.
     * A pooled connection that failed before the engine sent any byte of its answer (the engine closed it while it
     * was idle) is replaced by a new one and the request sent again, once.
     */
    void onLost(Throwable failure) {
        boolean answered = connection != null && connection.received();
        connection = null;
        if (ended) {
            return;
        }
        if (abort.get() != RUNNING) {
            endAborted();
        } else if (status == 0 && !answered && reusedConnection && !retried && body != null) {
            retried = true;
            engine.channels().connect(loop, this);
        } else if (failure instanceof UpstreamProtocolException) {
            fail(new UpstreamFailure(ErrorKind.FAILED, failure.getMessage()));
        } else if (status == 0) {
            fail(UpstreamFailure.beforeResponse(failure != null ? failure : new IOException("closed"),
                engine.settings().connectTimeout()));
        } else if (failure != null) {
            fail(new UpstreamFailure(ErrorKind.FAILED, "the connection to the engine was lost mid-stream"));
        } else if (errorBody != null) {
            failWithStatus();
        } else {
            endOfStream();
        }
    }

    /** The stream's bytes have all come: it ended well if the engine said so. */
    private void endOfStream() {
        if (adapter.errorKind() != null) {
            fail(new UpstreamFailure(adapter.errorKind(), adapter.errorMessage()));
        } else if (adapter.done() || adapter.finishReason() != null) {
            // A stream that ends after its finish reason but without [DONE] is accepted.
            finishStream();
        } else {
            fail(new UpstreamFailure(ErrorKind.FAILED, "the engine closed the stream before it ended"));
        }
    }

    private void finishStream() {
        FinishReason reason = adapter.finishReason() != null ? adapter.finishReason()
            : delivered >= request.maxTokens() ? FinishReason.LENGTH : FinishReason.STOP;
        finish(reason, adapter.promptTokens(), adapter.completionTokens());
    }

    private void failWithStatus() {
        fail(UpstreamFailure.httpStatus(status, Arrays.copyOf(errorBody, errorLength), engine.settings().model()));
    }

    private void firstTokenDue() {
        if (ended) {
            return;
        }
        if (!sawText) {
            abortNow(TIMED_OUT);
            return;
        }
        watchIdle(engine.settings().streamIdleTimeout().toNanos() - (System.nanoTime() - lastTextNs));
    }

    /**
     * From the first-token deadline on, one task checks that text came within the idle timeout, due when the last
     * text's idle time ends: a stream that froze after its first token ends with a timeout. Not one task per token.
     */
    private void watchIdle(long dueInNs) {
        if (engine.settings().streamIdleTimeout().isZero()) {
            return;
        }
        idleTimer = loop.schedule(this::idleDue, Math.max(0, dueInNs), TimeUnit.NANOSECONDS);
    }

    private void idleDue() {
        if (ended) {
            return;
        }
        long left = engine.settings().streamIdleTimeout().toNanos() - (System.nanoTime() - lastTextNs);
        if (left <= 0) {
            abortNow(IDLE);
        } else {
            watchIdle(left);
        }
    }

    /** An abort found on the loop itself (a timer): reported at once. */
    private void abortNow(int reason) {
        if (abort.compareAndSet(RUNNING, reason)) {
            aborted();
        }
    }

    private void aborted() {
        if (ended) {
            return;
        }
        abandonConnection();
        endAborted();
    }

    /** Closes the engine connection the exchange holds, if any: the engine sees the client go. */
    private void abandonConnection() {
        if (connection != null) {
            connection.abandon();
            connection = null;
        }
    }

    private void endAborted() {
        switch (abort.get()) {
            case CANCELLED -> finish(FinishReason.CANCELLED, -1, -1);
            case TIMED_OUT -> fail(new UpstreamFailure(ErrorKind.TIMEOUT, "the engine sent no token within "
                + UpstreamFailure.describe(engine.settings().firstTokenTimeout())));
            case IDLE -> fail(new UpstreamFailure(ErrorKind.TIMEOUT, "the engine sent nothing for "
                + UpstreamFailure.describe(engine.settings().streamIdleTimeout()) + " mid-stream"));
            default -> fail(new UpstreamFailure(ErrorKind.UNAVAILABLE, "the engine stopped"));
        }
    }

    private void text(String piece) {
        if (ended || abort.get() != RUNNING) {
            return;
        }
        sawText = true;
        lastTextNs = System.nanoTime();
        try {
            listener.onText(piece);
            delivered++;
        } catch (RuntimeException e) {
            LOG.warn("listener of {} failed in onText; cancelling the request", request.requestId(), e);
            end();
            abandonConnection();
        }
    }

    /** Reports the end; usage counts below 0 mean "not reported by the engine" and fall back to local counts. */
    private void finish(FinishReason reason, long promptTokens, long completionTokens) {
        if (ended) {
            return;
        }
        end();
        try {
            listener.onFinished(reason, promptTokens >= 0 ? promptTokens : request.promptTokens().length,
                completionTokens >= 0 ? completionTokens : delivered);
        } catch (RuntimeException e) {
            LOG.warn("listener of {} failed in onFinished", request.requestId(), e);
        }
    }

    private void fail(UpstreamFailure failure) {
        if (ended) {
            return;
        }
        end();
        try {
            listener.onError(failure.kind(), failure.message());
        } catch (RuntimeException e) {
            LOG.warn("listener of {} failed in onError", request.requestId(), e);
        }
    }

    /** The exchange is over: no more listener calls, its timers stopped, the engine's live set left. */
    private void end() {
        ended = true;
        if (firstTokenTimer != null) {
            firstTokenTimer.cancel(false);
        }
        if (idleTimer != null) {
            idleTimer.cancel(false);
        }
        releaseBody();
        engine.ended(this);
    }

    private void releaseBody() {
        if (body != null) {
            body.release();
            body = null;
        }
    }
}
