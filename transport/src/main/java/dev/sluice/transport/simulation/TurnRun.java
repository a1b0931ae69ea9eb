package dev.sluice.transport.simulation;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.AdmissionListener;
import dev.sluice.transport.engine.EngineListener;
import dev.sluice.transport.engine.EngineRequest;
import dev.sluice.transport.engine.EngineStream;
import dev.sluice.transport.engine.FinishReason;
import java.util.Arrays;
import java.util.concurrent.CancellationException;

/**
 * One turn's lifecycle, played as a frontend would: admission outcome from the router, then the engine's stream,
 * reported back to the router (responding at the first token, context tokens at every KV block, completed with
 * prompt + completion, aborted when the client gives up or the engine fails). Ends exactly once with an
 * {@link ClusterMetrics.Outcome}, which it reports to its {@link TurnOwner}. Called only on the simulation thread
 * (router and engine callbacks, driver actions); not thread-safe.
 */
final class TurnRun implements AdmissionListener, EngineListener {
    private enum State { SUBMITTED, ABANDONED, DISPATCHED, RESPONDING, CANCELLING, ENDED }

    private final ClusterSimulation host;
    private final TurnOwner owner;
    private final String requestId;
    final int turn;
    final int[] prompt;
    private final int maxTokens;
    private final long ingressNs;
    private long dispatchedNs;
    private long lifecycleId;
    private EngineStream stream;
    private State state = State.SUBMITTED;
    private ClusterMetrics.Outcome cancelOutcome = ClusterMetrics.Outcome.GAVE_UP;
    private long retryAfterNs;
    private int[] output = new int[64];
    private int outputCount;

    TurnRun(ClusterSimulation host, TurnOwner owner, String requestId, int turn, int[] prompt, int maxTokens,
            long ingressNs) {
        this.host = host;
        this.owner = owner;
        this.requestId = requestId;
        this.turn = turn;
        this.prompt = prompt;
        this.maxTokens = maxTokens;
        this.ingressNs = ingressNs;
    }

    void submitted(long id) {
        this.lifecycleId = id;
    }


    @Override
    public void onDispatched(long id, WorkerWithDpRank worker) {
        if (state == State.ABANDONED) {
            // The client left while the dispatch was being decided; the router releases the booking on its abort.
            end(cancelOutcome);
            return;
        }
        state = State.DISPATCHED;
        long now = host.now();
        long essential = owner.essentialTokens(this);
        host.metrics.dispatched(now - ingressNs, essential);
        dispatchedNs = now;
        if (host.closedLoop != null) {
            host.closedLoop.dispatched(now, now - ingressNs, essential);
        }
        try {
            stream = host.engine(worker).submit(new EngineRequest(requestId, prompt, maxTokens, worker.dpRank()),
                this);
        } catch (IllegalStateException e) {
            host.router.aborted(lifecycleId, e);
            end(ClusterMetrics.Outcome.FAILED);
        }
    }

    @Override
    public void onRejected(long id, AdmissionError error) {
        end(state == State.ABANDONED ? cancelOutcome : ClusterMetrics.Outcome.REJECTED);
    }

    /**
     * The router takes the turn's capacity back before its first token, as a frontend would: agreed only while no
     * token has come; the engine request is cancelled and the turn ends {@code PREEMPTED}, with the error's
     * Retry-After kept for its client ({@link #retryAfterNs}).
     */
    @Override
    public boolean onPreempted(long id, AdmissionError error) {
        if (state != State.DISPATCHED || stream == null) {
            return false;
        }
        retryAfterNs = error.retryAfterNanos();
        cancelOutcome = ClusterMetrics.Outcome.PREEMPTED;
        state = State.CANCELLING;
        stream.cancel();
        return true;
    }

    /** The Retry-After of the preemption that ended the turn (0 when it was not preempted). */
    long retryAfterNs() {
        return retryAfterNs;
    }

    @Override
    public void onToken(int tokenId) {
        if (outputCount == output.length) {
            output = Arrays.copyOf(output, output.length * 2);
        }
        output[outputCount++] = tokenId;
        if (state == State.DISPATCHED) {
            state = State.RESPONDING;
            host.metrics.firstToken(host.now() - ingressNs);
            if (host.closedLoop != null) {
                host.closedLoop.firstToken(host.now(), host.now() - dispatchedNs);
            }
            host.router.responding(lifecycleId);
        }
        if (outputCount % host.blockSize() == 0) {
            // ThunderAgent accounts a running program by its live context; report it as the KV cache grows.
            host.router.observeContextTokens(lifecycleId, prompt.length + outputCount);
        }
    }

    @Override
    public void onFinished(FinishReason reason, long promptTokens, long completionTokens) {
        if (cancelOutcome == ClusterMetrics.Outcome.PREEMPTED) {
            // The router ended the lifecycle when it preempted; the engine only confirms (or finished first).
            end(cancelOutcome);
            return;
        }
        if (reason == FinishReason.CANCELLED) {
            host.router.aborted(lifecycleId, new CancellationException("client left"));
            end(cancelOutcome);
            return;
        }
        host.router.completed(lifecycleId, promptTokens + completionTokens);
        if (host.closedLoop != null) {
            host.closedLoop.turnCompleted(host.now(), host.now() - ingressNs, prompt.length, outputCount);
        }
        end(ClusterMetrics.Outcome.COMPLETED);
    }

    @Override
    public void onError(String message) {
        host.router.aborted(lifecycleId, new IllegalStateException(message));
        end(ClusterMetrics.Outcome.FAILED);
    }

    /** The client stops waiting for the first token (its patience ran out). */
    void giveUpIfWaiting() {
        if (state == State.SUBMITTED || state == State.DISPATCHED) {
            cancel(ClusterMetrics.Outcome.GAVE_UP);
        }
    }

    /** Cancels the turn wherever it is, ending it with {@code outcome} once the router or engine confirms. */
    void cancel(ClusterMetrics.Outcome outcome) {
        cancelOutcome = outcome;
        switch (state) {
            case SUBMITTED -> {
                state = State.ABANDONED;
                host.router.aborted(lifecycleId, new CancellationException("client left"));
            }
            case DISPATCHED, RESPONDING -> {
                state = State.CANCELLING;
                stream.cancel();
            }
            case ABANDONED, CANCELLING, ENDED -> {
            }
        }
    }

    /** The answer generated so far (the whole answer once completed). */
    int[] output() {
        return Arrays.copyOf(output, outputCount);
    }

    private void end(ClusterMetrics.Outcome outcome) {
        if (state == State.ENDED) {
            host.metrics.duplicateEnds++;
            return;
        }
        state = State.ENDED;
        host.turnEnded(this, outcome);
        owner.turnEnded(this, outcome);
    }
}
