package dev.sluice.transport.engine.sim;

import dev.sluice.transport.engine.EngineListener;
import dev.sluice.transport.engine.EngineRequest;
import dev.sluice.transport.engine.EngineStream;
import java.util.Arrays;

/**
 * A request inside a simulated worker. The submitting thread creates it; from then on only the worker's engine
 * thread touches its state, except {@link #cancel}, which sets a flag and posts the request to the worker's inbox.
 */
final class SimRequest implements EngineStream {
    enum State { NEW, WAITING, PREFILL, DECODE, DONE }

    final EngineRequest request;
    final EngineListener listener;
    private final SimulatedWorker owner;
    private volatile boolean cancelRequested;

    ActiveSequence sequence;
    /** The request's tokens and blocks under {@link SchedulerMode#VLLM_V1} (then {@code sequence} is unused). */
    VllmSequence vllm;
    /** Preempted at least once (vLLM mode): its lookups stay out of the hit-rate metric. */
    boolean resumed;
    State state = State.NEW;
    /** Tokens handed to the client so far (regenerated tokens after a preemption are not handed out again). */
    int emitted;
    /** Tokens the listener has received ({@code emitted} minus the one pending at a pass end). */
    int delivered;
    /** Uncached prompt tokens still to prefill once admitted. */
    int remainingPrefill;
    /** Blocks counted at admission that are not allocated yet (the prompt's first chunk has not run). */
    int reservedBlocks;
    /** The tokens handed out so far, for regeneration after a preemption; grown on demand. */
    private int[] emittedTokens = new int[16];
    boolean hasPendingToken;
    int pendingToken;
    boolean finishPending;

    SimRequest(EngineRequest request, EngineListener listener, SimulatedWorker owner) {
        this.request = request;
        this.listener = listener;
        this.owner = owner;
    }

    @Override
    public void cancel() {
        if (!cancelRequested) {
            cancelRequested = true;
            owner.post(this);
        }
    }

    void recordEmitted(int token) {
        if (emitted == emittedTokens.length) {
            emittedTokens = Arrays.copyOf(emittedTokens, emittedTokens.length * 2);
        }
        emittedTokens[emitted] = token;
    }

    int emittedToken(int index) {
        return emittedTokens[index];
    }

    boolean cancelRequested() {
        return cancelRequested;
    }

    @Override
    public String toString() {
        return "request " + request.requestId() + " (" + state + ")";
    }
}
