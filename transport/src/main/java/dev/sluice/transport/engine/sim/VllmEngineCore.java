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
 * One data-parallel rank modelled on vLLM v1's scheduler ({@link SchedulerMode#VLLM_V1}). At a pass boundary, with a
 * budget of {@code max_num_batched_tokens}:
 * <ol>
 *   <li>Running requests, oldest first, each get their next chunk (a prefill remainder, or one decode token) and the
 *   blocks it needs. When the blocks are not free, the newest running request is preempted (its blocks freed, its
 *   KV progress dropped, put first in the waiting queue) until they are, or until the request itself is the one
 *   preempted.</li>
 *   <li>Only if nothing was preempted in this pass, waiting requests are admitted in order while budget and
 *   {@code max_num_seqs} allow: the prefix-cache hit is looked up, and the request goes in only if the blocks it
 *   must allocate for its first chunk, plus the evictable blocks its hit takes out of the free pool, fit in the free
 *   and evictable blocks (no watermark); the first that does not fit stops admission.</li>
 *   <li>The pass takes one time for all its prefill chunks and decodes ({@link CostModel}); at its end every request
 *   whose tokens all have KV samples one token (the first after a prefill, or the next after a resumed one's
 *   re-prefill of prompt plus output); one that reached its length finishes and frees its blocks.</li>
 * </ol>
 * A request is refused at submission only if prompt plus {@code max_tokens} could never fit the whole cache.
 *
 * <p>Owned by one thread (the worker's runner or the virtual-clock driver); not thread-safe, except {@link #load()}.
 */
final class VllmEngineCore implements RankEngine {
    private final int dpRank;
    private final SimEngineContext ctx;
    private final BlockHasher hasher;
    private final KvManager kv;
    private final SplittableRandom random;
    private final ArrayDeque<SimRequest> waiting = new ArrayDeque<>();
    private final ArrayList<SimRequest> running = new ArrayList<>();
    private final ArrayList<SimRequest> sampling = new ArrayList<>();
    private final ArrayList<SimRequest> outputs = new ArrayList<>();
    private final HitRateWindow hitRate = new HitRateWindow(1000);
    private long nextBoundaryNs = IDLE;
    private long waitingTokens;
    private long preemptions;
    private long prefillsStarted;
    private long prefillPromptTokens;
    private long prefillComputedTokens;
    private long prefixQueryTokens;
    private long prefixHitTokens;
    private long nextUniqueId = 1;
    private double chunkMs;
    private int prefillChunks;
    private int decodes;
    private volatile EngineLoad load;

    VllmEngineCore(long workerId, int dpRank, SimEngineContext ctx, KvEventSink sink, EngineKvListener listener) {
        this.dpRank = dpRank;
        this.ctx = ctx;
        this.hasher = new BlockHasher(ctx.blockSize());
        KvEventPublisher publisher = ctx.enablePrefixCaching()
            && (sink != KvEventSink.NONE || listener != EngineKvListener.NONE)
            ? new KvEventPublisher(new WorkerWithDpRank(workerId, dpRank), sink, listener, ctx.blockSize()) : null;
        this.kv = new KvManager((int) ctx.numGpuBlocks(), ctx.enablePrefixCaching(), publisher);
        this.random = new SplittableRandom(ctx.seed() ^ (workerId * 0x9E3779B97F4A7C15L) ^ (dpRank * 0xBF58476DL));
        this.load = EngineLoad.idle(dpRank, ctx.numGpuBlocks());
    }

    @Override
    public void submit(SimRequest r, long nowNs) {
        int promptLength = r.request.promptTokens().length;
        long needed = ActiveSequence.blocksFor((long) promptLength + r.request.maxTokens(), ctx.blockSize());
        if (needed > ctx.numGpuBlocks()) {
            fail(r, "request " + r.request.requestId() + " needs " + needed + " KV blocks for " + promptLength
                + " prompt tokens and max_tokens " + r.request.maxTokens() + ", more than the engine's "
                + ctx.numGpuBlocks());
            return;
        }
        if (!ctx.enableChunkedPrefill() && promptLength > ctx.maxNumBatchedTokens()) {
            fail(r, "request " + r.request.requestId() + " has " + promptLength
                + " prompt tokens, more than max_num_batched_tokens " + ctx.maxNumBatchedTokens()
                + " without chunked prefill");
            return;
        }
        r.vllm = new VllmSequence(r.request.promptTokens(), r.request.maxTokens(), hasher, ctx.enablePrefixCaching(),
            () -> nextUniqueId++);
        r.state = SimRequest.State.WAITING;
        waiting.addLast(r);
        waitingTokens += promptLength;
        if (nextBoundaryNs == IDLE) {
            nextBoundaryNs = nowNs;
        }
        publishLoad();
    }

    @Override
    public void cancel(SimRequest r) {
        if (r.state == SimRequest.State.DONE) {
            return;
        }
        detach(r);
        EngineCallbacks.finished(r, FinishReason.CANCELLED);
        publishLoad();
    }

    @Override
    public void failAll(String message) {
        ArrayList<SimRequest> all = new ArrayList<>(waiting);
        all.addAll(running);
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

    @Override
    public long nextEventAt() {
        return nextBoundaryNs;
    }

    @Override
    public EngineLoad load() {
        return load;
    }

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
        chunkMs = 0.0;
        prefillChunks = 0;
        decodes = 0;
        sampling.clear();
        int budget = ctx.maxNumBatchedTokens();
        boolean preempted = false;
        for (int i = 0; i < running.size() && budget > 0; i++) {
            SimRequest r = running.get(i);
            VllmSequence seq = r.vllm;
            int n = Math.min(seq.numTokens() - seq.numComputed(), budget);
            boolean scheduled = true;
            while (seq.blocksNeeded(seq.numComputed() + n) > freeBlocks()) {
                SimRequest victim = running.remove(running.size() - 1);
                preempt(victim);
                preempted = true;
                if (victim == r) {
                    scheduled = false;
                    break;
                }
            }
            if (!scheduled) {
                break;
            }
            schedule(r, n);
            budget -= n;
        }
        if (!preempted) {
            budget = admit(budget);
        }
        double decodeMs = PerfModel.decodeMs(decodes, kv.activeBlocks(), ctx.numGpuBlocks());
        double prefillMs = ctx.costModel() == CostModel.ATTENTION && prefillChunks > 0
            ? chunkMs + PerfModel.prefillPassMs() : chunkMs;
        for (SimRequest r : sampling) {
            sample(r);
        }
        long durationNs = PerfModel.passNs(prefillMs, decodeMs, ctx.speedupRatio());
        nextBoundaryNs = durationNs == 0 ? IDLE : atNs + durationNs;
        publishLoad();
    }

    private int admit(int budget) {
        int left = budget;
        while (!waiting.isEmpty() && left > 0 && running.size() < ctx.maxNumSeqs()) {
            SimRequest r = waiting.peekFirst();
            VllmSequence seq = r.vllm;
            int hits = ctx.enablePrefixCaching() ? seq.hitBlocks(kv) : 0;
            int cached = hits * ctx.blockSize();
            int n = seq.numTokens() - cached;
            if (n > left) {
                if (!ctx.enableChunkedPrefill()) {
                    return left;
                }
                n = left;
            }
            long needed = ActiveSequence.blocksFor(cached + n, ctx.blockSize()) - hits + seq.evictableAmong(kv, hits);
            if (needed > freeBlocks()) {
                return left;
            }
            waiting.pollFirst();
            waitingTokens -= seq.numTokens();
            seq.acquireHits(kv, hits);
            prefillsStarted++;
            prefillPromptTokens += seq.numTokens();
            if (!r.resumed) {
                // vLLM keeps the lookups of resumed (preempted) requests out of its hit-rate metric.
                prefixQueryTokens += seq.numTokens();
                prefixHitTokens += cached;
                hitRate.record((double) cached / seq.numTokens());
            }
            r.state = SimRequest.State.PREFILL;
            running.add(r);
            schedule(r, n);
            left -= n;
        }
        return left;
    }

    /** Allocates and accounts {@code n} tokens of {@code r} in this pass (checked to fit). */
    private void schedule(SimRequest r, int n) {
        VllmSequence seq = r.vllm;
        int context = seq.numComputed();
        seq.allocate(kv, context + n);
        if (seq.prefilled()) {
            decodes++;
        } else {
            prefillComputedTokens += n;
            prefillChunks++;
            chunkMs += ctx.costModel() == CostModel.ATTENTION ? PerfModel.attentionChunkMs(n, context)
                : PerfModel.prefillMs(n);
        }
        seq.computed(n);
        if (seq.numComputed() == seq.numTokens()) {
            sampling.add(r);
        }
    }

    /** The pass computed every token of {@code r}: it samples one, and finishes at its length. */
    private void sample(SimRequest r) {
        VllmSequence seq = r.vllm;
        r.state = SimRequest.State.DECODE;
        int token = 1000 + random.nextInt(1000);
        seq.append(token);
        markOutput(r);
        r.emitted++;
        r.hasPendingToken = true;
        r.pendingToken = token;
        if (seq.isComplete()) {
            running.remove(r);
            seq.free(kv);
            r.state = SimRequest.State.DONE;
            r.finishPending = true;
        }
    }

    private long freeBlocks() {
        return kv.capacity() - kv.activeBlocks();
    }

    /** vLLM's recompute preemption: blocks freed, KV progress dropped, first in the waiting queue. */
    private void preempt(SimRequest r) {
        r.vllm.reset(kv);
        r.resumed = true;
        r.state = SimRequest.State.WAITING;
        waiting.addFirst(r);
        waitingTokens += r.vllm.numTokens();
        preemptions++;
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

    private void detach(SimRequest r) {
        switch (r.state) {
            case WAITING -> {
                waiting.remove(r);
                waitingTokens -= r.vllm.numTokens();
            }
            case PREFILL, DECODE -> running.remove(r);
            case NEW, DONE -> {
            }
        }
        if (r.vllm != null && r.state != SimRequest.State.DONE) {
            r.vllm.free(kv);
        }
        r.hasPendingToken = false;
        r.state = SimRequest.State.DONE;
    }

    private void fail(SimRequest r, String message) {
        r.state = SimRequest.State.DONE;
        EngineCallbacks.error(r, ErrorKind.REJECTED, message);
    }

    private void publishLoad() {
        long prefillTokens = waitingTokens;
        for (int i = 0; i < running.size(); i++) {
            VllmSequence seq = running.get(i).vllm;
            if (!seq.prefilled()) {
                prefillTokens += seq.numTokens() - seq.numComputed();
            }
        }
        load = new EngineLoad(dpRank, prefillTokens, kv.activeBlocks(), ctx.numGpuBlocks(), running.size(),
            waiting.size(), hitRate.mean(), preemptions, prefixQueryTokens, prefixHitTokens);
    }
}
