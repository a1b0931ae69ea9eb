package dev.sluice.transport.engine;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * Hands one request's engine callbacks from the engine's thread to the HTTP handler's thread, which waits in
 * {@link #take} or {@link #takeBatched}, or looks without waiting in {@link #poll}. The engine thread never blocks:
 * the queue is unbounded (a request has at most max_tokens tokens) and lock-free, and a callback wakes the handler
 * only when it is parked waiting for it (a handler that takes a busy queue is never woken). One handler thread
 * takes; callbacks may come from any thread.
 */
public final class EngineQueue implements EngineListener {
    /** One callback. */
    public sealed interface Signal {
    }

    /**
     * A generated token.
     *
     * @param tokenId the id, or {@link EngineListener#UNKNOWN_TOKEN_ID} when the engine sent text.
     * @param text    the engine's text for it, or {@code null} when the frontend renders the id.
     */
    public record Token(int tokenId, String text) implements Signal {
        public Token(int tokenId) {
            this(tokenId, null);
        }
    }

    /** The request ended normally (or was cancelled). */
    public record Finished(FinishReason reason, long promptTokens, long completionTokens) implements Signal {
    }

    /** The request failed; the message is safe to show a client. */
    public record Failed(ErrorKind kind, String message) implements Signal {
        public Failed(String message) {
            this(ErrorKind.FAILED, message);
        }
    }

    private final ConcurrentLinkedQueue<Signal> signals = new ConcurrentLinkedQueue<>();
    /** The handler while it is parked in a take, else {@code null}. */
    private volatile Thread waiter;
    /** True while the parked handler waits for the end only: a token then does not wake it. */
    private volatile boolean endOnly;

    /** An empty queue. */
    public EngineQueue() {
    }

    @Override
    public void onToken(int tokenId) {
        add(new Token(tokenId));
    }

    @Override
    public void onText(String text) {
        add(new Token(UNKNOWN_TOKEN_ID, text));
    }

    @Override
    public void onFinished(FinishReason reason, long promptTokens, long completionTokens) {
        add(new Finished(reason, promptTokens, completionTokens));
    }

    @Override
    public void onError(String message) {
        add(new Failed(message));
    }

    @Override
    public void onError(ErrorKind kind, String message) {
        add(new Failed(kind, message));
    }

    private void add(Signal signal) {
        signals.offer(signal);
        // After the offer: a handler that parks after it sees the signal, one parked before it is in waiter.
        Thread parked = waiter;
        if (parked != null && (!endOnly || !(signal instanceof Token))) {
            LockSupport.unpark(parked);
        }
    }

    /**
     * The next callback, waiting for it; on the handler's (virtual) thread.
     *
     * @throws InterruptedException if the thread is interrupted, on entry or while it waits.
     */
    public Signal take() throws InterruptedException {
        return take(false);
    }

    /**
     * The next callback, as {@link #take}, for a handler that needs only the whole answer: while nothing is queued it
     * waits for the request's end (its {@link Finished} or {@link Failed}); tokens that arrive meanwhile are queued
     * without waking it, and it then takes them one by one before the end.
     *
     * @throws InterruptedException if the thread is interrupted, on entry or while it waits.
     */
    public Signal takeBatched() throws InterruptedException {
        return take(true);
    }

    /**
     * The next callback if one is queued, else {@code null} at once; on the handler's thread. A stream writer takes
     * what is already queued with it and flushes once the queue is empty.
     */
    public Signal poll() {
        return signals.poll();
    }

    private Signal take(boolean batched) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException("engine queue take interrupted");
        }
        Signal signal = signals.poll();
        if (signal != null) {
            return signal;
        }
        endOnly = batched;
        waiter = Thread.currentThread();
        try {
            // Polled again after publishing the waiter: a signal offered before that is seen here.
            while ((signal = signals.poll()) == null) {
                LockSupport.park(this);
                if (Thread.interrupted()) {
                    throw new InterruptedException("engine queue take interrupted");
                }
            }
            return signal;
        } finally {
            waiter = null;
        }
    }
}
