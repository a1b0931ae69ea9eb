package dev.sluice.transport.frontend;

import dev.sluice.transport.engine.EngineListener;
import dev.sluice.transport.engine.EngineQueue;
import dev.sluice.transport.engine.EngineStream;
import dev.sluice.transport.engine.ErrorKind;
import dev.sluice.transport.engine.FinishReason;

/**
 * Stands between an engine and a handler's {@link EngineQueue} so that a preemption and the first response item
 * cannot both win: the engine's first token or text claims the request for streaming ({@link
 * AdmissionTicket#claimStreaming}) before it enters the queue, and once the router has preempted the request nothing
 * more of the engine's reaches the queue. On preemption the gate cancels the engine request and hands the handler a
 * failure it answers as {@code preempted} (the ticket holds the typed error). Engine callbacks on the engine's
 * thread; {@link #preempted()} on the scheduler's or the handler's; each step is atomic.
 */
final class PreemptionGate implements EngineListener {
    /** The failure text the handler recognises; the client sees the ticket's typed error instead. */
    static final String PREEMPTED = "preempted";

    private final AdmissionTicket ticket;
    private final EngineQueue queue;
    private final Runnable firstItem;
    /** Engine thread only: the first token or text has entered the queue. */
    private boolean responding;
    private volatile EngineStream stream;
    private final java.util.concurrent.atomic.AtomicBoolean ended = new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * A gate in front of {@code queue}; {@code firstItem} runs once, on the engine's thread, when the first token or
     * text has entered the queue (the router hears then that the request responds, whenever the handler takes it).
     */
    PreemptionGate(AdmissionTicket ticket, EngineQueue queue, Runnable firstItem) {
        this.ticket = ticket;
        this.queue = queue;
        this.firstItem = firstItem;
    }

    /** The engine request to cancel on preemption; if it was preempted meanwhile, cancels it now. */
    void stream(EngineStream submitted) {
        stream = submitted;
        ticket.whenPreempted(this::preempted);
    }

    /** The router took the request's capacity: cancel the engine request and end the handler's wait, once. */
    void preempted() {
        if (ended.compareAndSet(false, true)) {
            queue.onError(ErrorKind.UNAVAILABLE, PREEMPTED);
            EngineStream submitted = stream;
            if (submitted != null) {
                submitted.cancel();
            }
        }
    }

    @Override
    public void onToken(int tokenId) {
        if (ticket.claimStreaming()) {
            queue.onToken(tokenId);
            responded();
        }
    }

    @Override
    public void onText(String text) {
        if (ticket.claimStreaming()) {
            queue.onText(text);
            responded();
        }
    }

    private void responded() {
        if (!responding) {
            responding = true;
            firstItem.run();
        }
    }

    @Override
    public void onFinished(FinishReason reason, long promptTokens, long completionTokens) {
        if (ticket.claimStreaming()) {
            queue.onFinished(reason, promptTokens, completionTokens);
        }
    }

    @Override
    public void onError(String message) {
        onError(ErrorKind.FAILED, message);
    }

    @Override
    public void onError(ErrorKind kind, String message) {
        if (ticket.preemption() == null) {
            queue.onError(kind, message);
        }
    }
}
