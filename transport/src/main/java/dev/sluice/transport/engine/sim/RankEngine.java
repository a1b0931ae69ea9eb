package dev.sluice.transport.engine.sim;

import dev.sluice.transport.engine.EngineLoad;

/**
 * One data-parallel rank's engine loop as a time-driven state machine: the mocker's ({@link SimEngineCore}) or vLLM
 * v1's ({@link VllmEngineCore}), chosen by {@link SimEngineContext#scheduler}. Owned by one thread (the worker's
 * runner or the virtual-clock driver); not thread-safe, except {@link #load()}, a snapshot published after every
 * pass.
 */
interface RankEngine {
    long IDLE = Long.MAX_VALUE;

    /** Queues a request; a rank that was idle starts a pass at {@code nowNs}. */
    void submit(SimRequest r, long nowNs);

    /** Frees a request and tells its listener it was cancelled, unless it already ended. */
    void cancel(SimRequest r);

    /** Fails every request still here (the worker is closing). */
    void failAll(String message);

    /** Runs every pass boundary due by {@code nowNs}; returns how many ran. */
    int advanceTo(long nowNs);

    /** When the next pass boundary is due, or {@link #IDLE}. */
    long nextEventAt();

    EngineLoad load();

    /** Cumulative prefill work since start. Owner thread only. */
    PrefillCounters prefillCounters();

    KvManager kv();
}
