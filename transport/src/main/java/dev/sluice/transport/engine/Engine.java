package dev.sluice.transport.engine;

/**
 * An inference engine (one worker, possibly with several data-parallel ranks) as the frontend uses it. The
 * simulated engine implements it in-process; a remote OpenAI-compatible engine can implement it over HTTP.
 *
 * <p>Contract: every accepted {@link #submit} ends in exactly one terminal callback,
 * {@link EngineListener#onFinished} or {@link EngineListener#onError}, preceded by zero or more
 * {@link EngineListener#onToken} calls, all from one thread of the engine's choosing, never from inside
 * {@code submit} itself: a caller on one of the process's shared event loops
 * ({@link dev.sluice.transport.io.EventLoops}) gets its calls on that loop, where the engine can (a remote engine
 * does). Methods may be called from any thread. KV events, when the engine reports them, go to the
 * {@link dev.sluice.core.kv.KvEventSink} it was built with.
 */
public interface Engine extends AutoCloseable {
    /**
     * Starts a request. Never blocks on the engine's work and never calls {@code listener} from inside this call; a
     * caller on a shared event loop gets its listener calls on that loop where the engine runs on the loops.
     *
     * @throws IllegalStateException if the engine is closed.
     */
    EngineStream submit(EngineRequest request, EngineListener listener);

    /** The engine's fixed runtime configuration, as a model card would carry it. */
    EngineRuntimeConfig runtimeConfig();

    /**
     * The latest load snapshot of one data-parallel rank, as published after the engine's last forward pass.
     *
     * @throws IndexOutOfBoundsException if {@code dpRank} is not in {@code [0, runtimeConfig().dataParallelSize())}.
     */
    EngineLoad load(int dpRank);

    /** Where the engine runs, for operators' logs: its URL, or {@code in-process} (the default). */
    default String address() {
        return "in-process";
    }

    /**
     * Checks, cheaply and without generating anything, whether the engine answers: used to bring back a worker that
     * was marked unhealthy. Blocks the caller up to the engine's own timeouts; never throws. Any thread. In-process
     * engines cannot become unreachable, so the default says {@link ProbeResult#REACHABLE}.
     */
    default ProbeResult probe() {
        return ProbeResult.REACHABLE;
    }

    /** Stops the engine. Requests still running end with {@link EngineListener#onError}. Idempotent. */
    @Override
    void close();
}
