package dev.sluice.transport.engine.http;

import dev.sluice.transport.engine.EngineCall;
import dev.sluice.transport.engine.EngineListener;
import dev.sluice.transport.engine.EngineRequest;
import dev.sluice.transport.engine.ErrorKind;
import dev.sluice.transport.engine.FinishReason;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One request to a remote engine, run by one reader thread ({@link #run}: its own virtual thread, or the caller's):
 * POST the prompt (its text, or its token ids) with {@code stream: true}, read the event stream, and call the
 * listener — one {@code onText} per text delta, then one terminal callback — only from that thread. {@link #cancel},
 * the timers and the engine's close may come from any thread: the first of them to fire records why the exchange
 * ended and interrupts the reader, whose blocking socket I/O then fails and closes the connection (never returned to
 * the pool); the reader then reports that reason. An abort that comes as the exchange ends never leaves its
 * interrupt on the reader thread, which may be a caller that goes on with other work.
 */
final class RemoteExchange implements EngineCall, Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(RemoteExchange.class);
    private static final int RUNNING = 0;
    private static final int CANCELLED = 1;
    private static final int TIMED_OUT = 2;
    private static final int STOPPED = 3;
    private static final int IDLE = 4;
    /** An event line longer than this is not a completion stream; the bound keeps memory in check. */
    private static final int MAX_LINE_BYTES = 1 << 20;
    private static final int MAX_ERROR_BODY_BYTES = 4096;
    private static final long MAX_DRAIN_BYTES = 64 * 1024;

    private final HttpEngine engine;
    private final EngineRequest request;
    private final EngineListener listener;

    private final AtomicInteger abort = new AtomicInteger(RUNNING);
    /** The reader thread while the exchange runs: what an abort interrupts. Guarded by {@code this}. */
    private Thread reader;
    /** Whether an abort interrupted the reader, whose interrupt the end then clears. Guarded by {@code this}. */
    private boolean interrupted;
    private volatile boolean sawText;
    /** When the last text came (reader thread writes, the idle watch reads). */
    private volatile long lastTextNs;
    /** The idle watch, once the first-token deadline has passed with text. */
    private volatile ScheduledFuture<?> idleWatch;
    /** Set when the exchange is over: an idle watch started after that stops at once. */
    private volatile boolean finished;
    /** Reader thread only. */
    private long delivered;
    private boolean ended;

    RemoteExchange(HttpEngine engine, EngineRequest request, EngineListener listener) {
        this.engine = engine;
        this.request = request;
        this.listener = listener;
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
        if (!abort.compareAndSet(RUNNING, reason)) {
            return;
        }
        // The reader publishes itself before it checks the abort state: either it sees this abort, or this sees it;
        // and it withdraws under the same lock, so no interrupt reaches it after the exchange.
        synchronized (this) {
            Thread thread = reader;
            if (thread != null && thread != Thread.currentThread()) {
                interrupted = true;
                thread.interrupt();
            }
        }
    }

    /**
     * Carries the exchange out on this thread when it is virtual; a platform thread's blocking socket I/O ignores the
     * interrupt with which an abort stops the reader, so from one the exchange runs on a virtual thread it waits for
     * (an interrupt of the waiting thread cancels the request).
     */
    @Override
    public void run() {
        if (Thread.currentThread().isVirtual()) {
            carryOut();
            return;
        }
        Thread thread = Thread.ofVirtual().name(engine.threadName(request)).start(this::carryOut);
        boolean interruptedWhileWaiting = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                interruptedWhileWaiting = true;
                cancel();
            }
        }
        if (interruptedWhileWaiting) {
            Thread.currentThread().interrupt();
        }
    }

    private void carryOut() {
        synchronized (this) {
            reader = Thread.currentThread();
        }
        ScheduledFuture<?> timer = null;
        try {
            timer = engine.timers().schedule(() -> {
                if (!sawText) {
                    abort(TIMED_OUT);
                } else {
                    watchIdle();
                }
            }, engine.settings().firstTokenTimeout().toNanos(), TimeUnit.NANOSECONDS);
            exchange();
        } catch (RejectedExecutionException e) {
            // The timer rejects work only once the engine has closed.
            abort(STOPPED);
            endAborted();
        } catch (RuntimeException e) {
            LOG.warn("request {} could not be sent to {}", request.requestId(), engine.settings().baseUrl(), e);
            fail(new UpstreamFailure(ErrorKind.FAILED, "the request could not be sent to the engine"));
        } finally {
            if (timer != null) {
                timer.cancel(false);
            }
            finished = true;
            ScheduledFuture<?> watch = idleWatch;
            if (watch != null) {
                watch.cancel(false);
            }
            engine.ended(this);
            withdraw();
        }
    }

    /** The exchange is over: later aborts leave the reader alone, and an abort's interrupt does not outlive it. */
    private synchronized void withdraw() {
        reader = null;
        if (interrupted) {
            Thread.interrupted();
        }
    }

    /**
     * From the first-token deadline on, checks every half idle timeout that text came within the idle timeout: a
     * stream that froze after its first token ends with a timeout. One check task per request, not one per token.
     */
    private void watchIdle() {
        long idleNs = engine.settings().streamIdleTimeout().toNanos();
        if (idleNs == 0 || abort.get() != RUNNING) {
            return;
        }
        long periodNs = Math.max(1_000_000L, idleNs / 2);
        ScheduledFuture<?> watch = engine.timers().scheduleWithFixedDelay(() -> {
            if (!finished && System.nanoTime() - lastTextNs > idleNs) {
                abort(IDLE);
            }
        }, periodNs, periodNs, TimeUnit.NANOSECONDS);
        idleWatch = watch;
        if (finished) {
            watch.cancel(false);
        }
    }

    private void exchange() {
        if (abort.get() != RUNNING) {
            endAborted();
            return;
        }
        UpstreamConnection connection;
        try {
            connection = engine.client().post(request.requestId(),
                body -> CompletionBody.write(body, engine.settings().model(), request));
        } catch (IOException | RuntimeException e) {
            failOn(e, UpstreamFailure.beforeResponse(e, engine.settings().connectTimeout()));
            return;
        }
        try {
            int status = connection.head().status();
            if (abort.get() != RUNNING) {
                endAborted();
            } else if (status != 200) {
                fail(UpstreamFailure.httpStatus(status, connection.readBody(MAX_ERROR_BODY_BYTES),
                    engine.settings().model()));
            } else {
                read(connection);
                if (ended && abort.get() == RUNNING) {
                    drain(connection);
                }
            }
        } catch (IOException | RuntimeException e) {
            failOn(e, new UpstreamFailure(ErrorKind.FAILED, "the connection to the engine was lost mid-stream"));
        } finally {
            engine.client().release(connection);
        }
    }

    /**
     * A read that timed out means the engine sent nothing for longer than the first-token or idle timeout: the socket
     * timeout only backs the timers up, but can fire as they do, so it ends the exchange as they would have.
     */
    private void abortIfReadTimedOut(Exception e) {
        if (e instanceof SocketTimeoutException && !UpstreamFailure.isConnectFailure(e)) {
            abort(sawText ? IDLE : TIMED_OUT);
        }
    }

    /**
     * The exchange failed with {@code e}: it ends as aborted when an abort (or a read timeout) came first, with the
     * engine's protocol error when it broke HTTP, else with {@code otherwise}.
     */
    private void failOn(Exception e, UpstreamFailure otherwise) {
        abortIfReadTimedOut(e);
        if (abort.get() != RUNNING) {
            endAborted();
        } else if (e instanceof UpstreamProtocolException) {
            fail(new UpstreamFailure(ErrorKind.FAILED, e.getMessage()));
        } else {
            fail(otherwise);
        }
    }

    /** Feeds the body to the event parser, straight from the connection's buffer, until the stream ends. */
    private void read(UpstreamConnection connection) throws IOException {
        CompletionStreamAdapter adapter = new CompletionStreamAdapter(this::text);
        SseParser parser = new SseParser(adapter, MAX_LINE_BYTES);
        boolean[] overlong = {false};
        connection.readBody((bytes, offset, length) -> {
            if (!parser.feed(bytes, offset, length)) {
                overlong[0] = true;
                return false;
            }
            return !ended && !adapter.done() && adapter.errorKind() == null;
        });
        if (overlong[0]) {
            fail(new UpstreamFailure(ErrorKind.FAILED, "the engine sent an event line over 1 MiB"));
            return;
        }
        if (adapter.errorKind() != null) {
            fail(new UpstreamFailure(adapter.errorKind(), adapter.errorMessage()));
        } else if (adapter.done() || adapter.finishReason() != null) {
            // A stream that ends after its finish reason but without [DONE] is accepted.
            FinishReason reason = adapter.finishReason() != null ? adapter.finishReason()
                : delivered >= request.maxTokens() ? FinishReason.LENGTH : FinishReason.STOP;
            finish(reason, adapter.promptTokens(), adapter.completionTokens());
        } else if (abort.get() != RUNNING) {
            endAborted();
        } else {
            fail(new UpstreamFailure(ErrorKind.FAILED, "the engine closed the stream before it ended"));
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
        if (ended) {
            return;
        }
        sawText = true;
        lastTextNs = System.nanoTime();
        try {
            listener.onText(piece);
            delivered++;
        } catch (RuntimeException e) {
            LOG.warn("listener of {} failed in onText; cancelling the request", request.requestId(), e);
            ended = true;
            abort(CANCELLED);
        }
    }

    /** Reports the end; usage counts below 0 mean "not reported by the engine" and fall back to local counts. */
    private void finish(FinishReason reason, long promptTokens, long completionTokens) {
        if (ended) {
            return;
        }
        ended = true;
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
        ended = true;
        try {
            listener.onError(failure.kind(), failure.message());
        } catch (RuntimeException e) {
            LOG.warn("listener of {} failed in onError", request.requestId(), e);
        }
    }

    /**
     * Reads the rest of a finished body (after {@code [DONE]} only the end of the chunked body remains), so the
     * connection goes back to the engine's pool and the next request skips a TCP handshake. The client already has
     * its answer; a body that goes on past 64 KiB is cut by closing the connection.
     */
    private static void drain(UpstreamConnection connection) {
        try {
            connection.skipBody(MAX_DRAIN_BYTES);
        } catch (IOException | RuntimeException e) {
            // The connection is simply not reused.
        }
    }
}
