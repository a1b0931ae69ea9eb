package dev.sluice.transport.engine.sim;

import dev.sluice.core.kv.KvEventSink;
import dev.sluice.transport.engine.Engine;
import dev.sluice.transport.engine.EngineListener;
import dev.sluice.transport.engine.EngineLoad;
import dev.sluice.transport.engine.EngineRequest;
import dev.sluice.transport.engine.EngineRuntimeConfig;
import dev.sluice.transport.engine.EngineStream;
import dev.sluice.transport.engine.FinishReason;
import java.util.Objects;
import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;

/**
 * One simulated worker: an {@link Engine} with one {@link RankEngine} per data-parallel rank (the mocker's or vLLM
 * v1's). {@link #submit}
 * and {@link EngineStream#cancel} may be called from any thread; they post the request to an inbox and wake the
 * worker's driver. The driver — a {@link RealTimeRunner} thread, or the thread stepping a
 * {@link VirtualClockDriver} — is the only thread that calls {@link #doWork}, so it owns the cores and delivers
 * every listener callback and KV event. {@link #load} may be read from any thread.
 */
public final class SimulatedWorker implements Engine {
    private final long workerId;
    private final EngineRuntimeConfig runtimeConfig;
    private final RankEngine[] ranks;
    private final ManyToOneConcurrentLinkedQueue<SimRequest> inbox = new ManyToOneConcurrentLinkedQueue<>();
    private volatile Runnable wakeUp = () -> { };
    private volatile boolean closed;
    private boolean failedAll;

    /** A worker whose KV events (none with prefix caching off) go to {@code sink} on the driver's thread. */
    public SimulatedWorker(long workerId, SimEngineContext context, KvEventSink sink) {
        this(workerId, context, sink, EngineKvListener.NONE);
    }

    /** A worker that also tells {@code listener} what its cache stores and evicts, in its own hashes with tokens. */
    public SimulatedWorker(long workerId, SimEngineContext context, KvEventSink sink, EngineKvListener listener) {
        SimEngineContext ctx = context.validate();
        this.workerId = workerId;
        this.runtimeConfig = new EngineRuntimeConfig(ctx.numGpuBlocks(), ctx.blockSize(), ctx.maxNumBatchedTokens(),
            ctx.maxNumSeqs(), ctx.dpSize());
        this.ranks = new RankEngine[ctx.dpSize()];
        for (int rank = 0; rank < ranks.length; rank++) {
            KvEventSink s = Objects.requireNonNull(sink, "sink");
            EngineKvListener l = Objects.requireNonNull(listener, "listener");
            ranks[rank] = ctx.scheduler() == SchedulerMode.VLLM_V1 ? new VllmEngineCore(workerId, rank, ctx, s, l)
                : new SimEngineCore(workerId, rank, ctx, s, l);
        }
    }

    public long workerId() {
        return workerId;
    }

    @Override
    public EngineStream submit(EngineRequest request, EngineListener listener) {
        if (closed) {
            throw new IllegalStateException("simulated worker " + workerId + " is closed");
        }
        SimRequest r = new SimRequest(Objects.requireNonNull(request, "request"),
            Objects.requireNonNull(listener, "listener"), this);
        post(r);
        return r;
    }

    @Override
    public EngineRuntimeConfig runtimeConfig() {
        return runtimeConfig;
    }

    @Override
    public EngineLoad load(int dpRank) {
        return ranks[dpRank].load();
    }

    /**
     * Cumulative prefill work of one rank: what the prefix cache saved and what had to be computed. Only the
     * driver's thread may call it (a {@link VirtualClockDriver}'s, between steps); it is not published.
     */
    public PrefillCounters prefillCounters(int dpRank) {
        return ranks[dpRank].prefillCounters();
    }

    /** Stops accepting requests; the driver fails those still running at its next step. Idempotent. */
    @Override
    public void close() {
        closed = true;
        wakeUp.run();
    }

    boolean isClosed() {
        return closed;
    }

    /** Called by the driver when it attaches; {@code hook} must be cheap and thread-safe. */
    void wakeUpWith(Runnable hook) {
        this.wakeUp = hook;
    }

    void post(SimRequest r) {
        inbox.offer(r);
        wakeUp.run();
    }

    /**
     * Applies posted submissions and cancellations at {@code nowNs}, then runs every pass boundary due by then.
     * Driver thread only. Returns the work done (0 = nothing happened).
     */
    int doWork(long nowNs) {
        int work = 0;
        SimRequest r;
        while ((r = inbox.poll()) != null) {
            work++;
            apply(r, nowNs);
        }
        if (closed) {
            if (!failedAll) {
                failedAll = true;
                for (RankEngine rank : ranks) {
                    rank.failAll("simulated worker " + workerId + " stopped");
                }
                work++;
            }
            return work;
        }
        for (RankEngine rank : ranks) {
            work += rank.advanceTo(nowNs);
        }
        return work;
    }

    /** The earliest pass boundary of any rank, or {@link RankEngine#IDLE}. Driver thread only. */
    long nextEventAt() {
        long next = RankEngine.IDLE;
        for (RankEngine rank : ranks) {
            next = Math.min(next, rank.nextEventAt());
        }
        return next;
    }

    RankEngine rank(int dpRank) {
        return ranks[dpRank];
    }

    private void apply(SimRequest r, long nowNs) {
        if (r.state == SimRequest.State.NEW) {
            if (closed) {
                r.state = SimRequest.State.DONE;
                EngineCallbacks.error(r, "simulated worker " + workerId + " stopped");
            } else if (r.cancelRequested()) {
                r.state = SimRequest.State.DONE;
                EngineCallbacks.finished(r, FinishReason.CANCELLED);
            } else if (r.request.dpRank() >= ranks.length) {
                r.state = SimRequest.State.DONE;
                EngineCallbacks.error(r, "dp_rank " + r.request.dpRank() + " is out of bounds for dp_size "
                    + ranks.length);
            } else {
                ranks[r.request.dpRank()].submit(r, nowNs);
            }
            return;
        }
        if (r.cancelRequested() && r.state != SimRequest.State.DONE) {
            ranks[r.request.dpRank()].cancel(r);
        }
    }
}
