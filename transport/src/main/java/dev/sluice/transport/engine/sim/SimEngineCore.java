package dev.sluice.transport.engine.sim;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.kv.BlockHasher;
import dev.sluice.core.kv.KvEventSink;
import dev.sluice.transport.engine.EngineLoad;
import dev.sluice.transport.engine.ErrorKind;
import dev.sluice.transport.engine.FinishReason;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.SplittableRandom;

/**
 * One data-parallel rank of a simulated worker: the mid-2025 mocker loop as a time-driven state machine. A
 * forward pass runs at a pass boundary: admit waiting requests (FIFO, head-of-line), prefill (chunked within
 * {@code max_num_batched_tokens}), time the decode step from KV utilisation, decode one token per running
 * sequence (preempting the oldest when a block cannot be had). Its duration is {@code (prefill + decode) /
 * speedup_ratio}; the tokens and completions it produced are delivered at its end, the next boundary, where the
 * next pass starts at once if there is work. An idle rank has no boundary until a request arrives.
 *
 * <p>Owned by one thread (the worker's runner or the virtual-clock driver); not thread-safe, except
 * {@link #load()}, which reads a snapshot published after every pass.
 */
final class SimEngineCore implements RankEngine {
    private final int dpRank;
    private final SimEngineContext ctx;
    private final BlockHasher hasher;
    private final KvManager kv;
    private final SplittableRandom random;
    private final long admissionBlocks;
    private final ArrayDeque<SimRequest> waiting = new ArrayDeque<>();
    private final ArrayDeque<SimRequest> prefill = new ArrayDeque<>();
    private final ArrayList<SimRequest> decode = new ArrayList<>();
    private final ArrayList<SimRequest> outputs = new ArrayList<>();
    private final HitRateWindow hitRate = new HitRateWindow(1000);
    private long nextBoundaryNs = IDLE;
    private long activeTokens;
    private long prefillQueueTokens;
    private long waitingPromptTokens;
    private long reservedBlocks;
    private long preemptions;
    private long prefillsStarted;
    private long prefillPromptTokens;
    private long prefillComputedTokens;
    private long prefixQueryTokens;
    private long prefixHitTokens;
    private long nextUniqueId = 1;
    private volatile EngineLoad load;

    SimEngineCore(long workerId, int dpRank, SimEngineContext ctx, KvEventSink sink, EngineKvListener listener) {
        this.dpRank = dpRank;
        this.ctx = ctx;
        this.hasher = new BlockHasher(ctx.blockSize());
        KvEventPublisher publisher = ctx.enablePrefixCaching()
            && (sink != KvEventSink.NONE || listener != EngineKvListener.NONE)
            ? new KvEventPublisher(new WorkerWithDpRank(workerId, dpRank), sink, listener, ctx.blockSize()) : null;
        this.kv = new KvManager((int) ctx.numGpuBlocks(), ctx.enablePrefixCaching(), publisher);
        this.random = new SplittableRandom(ctx.seed() ^ (workerId * 0x9E3779B97F4A7C15L) ^ (dpRank * 0xBF58476DL));
        this.admissionBlocks = (long) Math.floor((1.0 - ctx.watermark()) * ctx.numGpuBlocks());
        this.load = EngineLoad.idle(dpRank, ctx.numGpuBlocks());
    }

    /** Queues a request; a rank that was idle starts a pass at {@code nowNs}. */
    @Override
    public void submit(SimRequest r, long nowNs) {
        int promptLength = r.request.promptTokens().length;
        // In long: prompt + max_tokens may pass Integer.MAX_VALUE, and such a request must fail, not wrap.
        long needed = ActiveSequence.blocksFor((long) promptLength + r.request.maxTokens(), ctx.blockSize());
        if (needed > admissionBlocks) {
            fail(r, "request " + r.request.requestId() + " needs " + needed + " KV blocks for " + promptLength
                + " prompt tokens and max_tokens " + r.request.maxTokens() + ", more than the engine's "
                + admissionBlocks);
            return;
        }
        if (!ctx.enableChunkedPrefill() && promptLength > ctx.maxNumBatchedTokens()) {
            fail(r, "request " + r.request.requestId() + " has " + promptLength
                + " prompt tokens, more than max_num_batched_tokens " + ctx.maxNumBatchedTokens()
                + " without chunked prefill");
            return;
        }
        r.sequence = new ActiveSequence(r.request.promptTokens(), r.request.maxTokens(), hasher,
            ctx.enablePrefixCaching(), () -> nextUniqueId++);
        r.state = SimRequest.State.WAITING;
        waiting.addLast(r);
        waitingPromptTokens += promptLength;
        if (nextBoundaryNs == IDLE) {
            nextBoundaryNs = nowNs;
        }
        publishLoad();
    }

    /** Frees a request and tells its listener it was cancelled, unless it already ended. */
    @Override
    public void cancel(SimRequest r) {
        if (r.state == SimRequest.State.DONE) {
            return;
        }
        detach(r);
        EngineCallbacks.finished(r, FinishReason.CANCELLED);
        publishLoad();
    }

    /** Fails every request still here (the worker is closing). */
    @Override
    public void failAll(String message) {
        ArrayList<SimRequest> all = new ArrayList<>(waiting);
        all.addAll(prefill);
        all.addAll(decode);
        for (SimRequest r : outputs) {
            if (r.state != SimRequest.State.DONE || r.finishPending) {
                all.add(r);
            }
        }
        outputs.clear();
        for (SimRequest r : all) {
            if (r.state != SimRequest.State.DONE || r.finishPending) {
                detach(r);
                r.finishPending = false;
                EngineCallbacks.error(r, message);
            }
        }
        nextBoundaryNs = IDLE;
        publishLoad();
    }

    /** Runs every pass boundary due by {@code nowNs}; returns how many ran. */
    @Override
    public int advanceTo(long nowNs) {
        int boundaries = 0;
        while (nextBoundaryNs <= nowNs) {
            long at = nextBoundaryNs;
            deliverOutputs();
            runPass(at);
            boundaries++;
        }
        return boundaries;
    }

    /** When the next pass boundary is due, or {@link #IDLE}. */
    @Override
    public long nextEventAt() {
        return nextBoundaryNs;
    }

    @Override
    public EngineLoad load() {
        return load;
    }

    /** Cumulative prefill work since start. Owner thread only. */
    @Override
    public PrefillCounters prefillCounters() {
        return new PrefillCounters(prefillsStarted, prefillPromptTokens, prefillComputedTokens, preemptions,
            prefixQueryTokens, prefixHitTokens);
    }

    @Override
    public KvManager kv() {
        return kv;
    }

    private void runPass(long atNs) {
        admit();
        double prefillMs = prefill();
        double decodeMs = PerfModel.decodeMs(decode.size(), kv.activeBlocks(), ctx.numGpuBlocks());
        activeTokens = decode.size();
        decodeStep();
        long durationNs = PerfModel.passNs(prefillMs, decodeMs, ctx.speedupRatio());
        // A pass that did nothing cannot be followed by one that does until a request arrives or leaves.
        nextBoundaryNs = durationNs == 0 ? IDLE : atNs + durationNs;
        publishLoad();
    }

    private void admit() {
        long blocks = kv.activeBlocks() + reservedBlocks;
        long tokens = activeTokens + prefillQueueTokens;
        int seqs = decode.size() + prefill.size();
        while (!waiting.isEmpty()) {
            SimRequest r = waiting.peekFirst();
            int needed = r.sequence.totalBlocks();
            int newTokens = r.sequence.newTokens(kv);
            // With chunked prefill the request's own tokens are left out, so one long prompt still gets in.
            boolean tokensFit = ctx.enableChunkedPrefill() ? tokens <= ctx.maxNumBatchedTokens()
                : tokens + newTokens <= ctx.maxNumBatchedTokens();
            if (blocks + needed > admissionBlocks || !tokensFit || seqs + 1 > ctx.maxNumSeqs()) {
                return;
            }
            waiting.pollFirst();
            waitingPromptTokens -= r.sequence.length();
            blocks += needed;
            tokens += newTokens;
            seqs++;
            int length = r.sequence.length();
            hitRate.record(length == 0 ? 0.0 : 1.0 - (double) newTokens / length);
            prefixQueryTokens += length;
            prefixHitTokens += length - newTokens;
            r.state = SimRequest.State.PREFILL;
            r.remainingPrefill = newTokens;
            r.reservedBlocks = needed;
            reservedBlocks += needed;
            prefillQueueTokens += newTokens;
            prefill.addLast(r);
        }
    }

    private double prefill() {
        double ms = 0.0;
        while (!prefill.isEmpty()) {
            SimRequest r = prefill.peekFirst();
            if (r.reservedBlocks >= 0) {
                reservedBlocks -= r.reservedBlocks;
                r.reservedBlocks = -1;
                if (!r.sequence.allocate(kv)) {
                    // Decode growth since admission took the reserved room: wait at the head for another pass.
                    prefill.pollFirst();
                    prefillQueueTokens -= r.remainingPrefill;
                    requeueFront(r);
                    return ms;
                }
                prefillsStarted++;
                prefillPromptTokens += r.sequence.length();
            }
            long room = ctx.maxNumBatchedTokens() - activeTokens;
            if (ctx.enableChunkedPrefill() && r.remainingPrefill > room) {
                if (room > 0) {
                    ms += PerfModel.prefillMs(room);
                    prefillComputedTokens += room;
                    r.remainingPrefill -= (int) room;
                    prefillQueueTokens -= room;
                }
                activeTokens = ctx.maxNumBatchedTokens();
                return ms;
            }
            ms += PerfModel.prefillMs(r.remainingPrefill);
            prefillComputedTokens += r.remainingPrefill;
            activeTokens += r.remainingPrefill;
            prefillQueueTokens -= r.remainingPrefill;
            r.remainingPrefill = 0;
            prefill.pollFirst();
            r.state = SimRequest.State.DECODE;
            decode.add(r);
        }
        return ms;
    }

    private void decodeStep() {
        for (int i = 0; i < decode.size(); i++) {
            SimRequest r = decode.get(i);
            // After a preemption the sequence regenerates the tokens the client already has, as vLLM's recompute
            // preemption keeps them: the KV cache then holds what the client will send back in its next turn.
            int token = r.sequence.generated() < r.emitted ? r.emittedToken(r.sequence.generated())
                : 1000 + random.nextInt(1000);
            boolean preemptedSelf = false;
            while (!r.sequence.generate(token, kv)) {
                SimRequest victim = decode.remove(0);
                i--;
                requeueFront(victim);
                preemptions++;
                if (victim == r) {
                    preemptedSelf = true;
                    break;
                }
            }
            if (preemptedSelf) {
                continue;
            }
            if (r.sequence.generated() > r.emitted) {
                markOutput(r);
                r.recordEmitted(token);
                r.emitted++;
                r.hasPendingToken = true;
                r.pendingToken = token;
            }
            if (r.sequence.isComplete()) {
                decode.remove(i);
                i--;
                r.sequence.free(kv);
                markOutput(r);
                r.state = SimRequest.State.DONE;
                r.finishPending = true;
            }
        }
    }

    private void deliverOutputs() {
        for (int i = 0; i < outputs.size(); i++) {
            SimRequest r = outputs.get(i);
            if (r.hasPendingToken) {
                r.hasPendingToken = false;
                if (!EngineCallbacks.token(r, r.pendingToken)) {
                    detach(r);
                    r.finishPending = false;
                    continue;
                }
            }
            if (r.finishPending) {
                r.finishPending = false;
                EngineCallbacks.finished(r, FinishReason.LENGTH);
            }
        }
        outputs.clear();
    }

    private void markOutput(SimRequest r) {
        if (!r.hasPendingToken && !r.finishPending) {
            outputs.add(r);
        }
    }

    /** Preemption reset: blocks freed, back to the prompt, at the front of the waiting queue. */
    private void requeueFront(SimRequest r) {
        r.sequence.reset(kv);
        r.state = SimRequest.State.WAITING;
        r.reservedBlocks = 0;
        waiting.addFirst(r);
        waitingPromptTokens += r.sequence.length();
    }

    /** Takes a request out of whichever queue holds it and frees its blocks; it ends in state DONE. */
    private void detach(SimRequest r) {
        switch (r.state) {
            case WAITING -> {
                waiting.remove(r);
                waitingPromptTokens -= r.sequence.length();
            }
            case PREFILL -> {
                prefill.remove(r);
                prefillQueueTokens -= r.remainingPrefill;
                if (r.reservedBlocks > 0) {
                    reservedBlocks -= r.reservedBlocks;
                }
            }
            case DECODE -> decode.remove(r);
            case NEW, DONE -> {
            }
        }
        if (r.sequence != null) {
            r.sequence.free(kv);
        }
        r.hasPendingToken = false;
        r.state = SimRequest.State.DONE;
    }

    /** Refuses a request the engine can never run as given: the client's to fix (a 400), not an engine fault. */
    private void fail(SimRequest r, String message) {
        r.state = SimRequest.State.DONE;
        EngineCallbacks.error(r, ErrorKind.REJECTED, message);
    }

    private void publishLoad() {
        load = new EngineLoad(dpRank, waitingPromptTokens + prefillQueueTokens, kv.activeBlocks(),
            ctx.numGpuBlocks(), prefill.size() + decode.size(), waiting.size(), hitRate.mean(), preemptions,
            prefixQueryTokens, prefixHitTokens);
    }
}
