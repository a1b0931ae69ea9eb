package dev.sluice.transport.engine;

/**
 * One data-parallel rank's load after its last forward pass. Immutable.
 *
 * @param dpRank              the rank.
 * @param activePrefillTokens prompt tokens still to prefill: the uncached remainder of admitted prompts plus the
 *                            whole prompts of waiting requests (whose cache hits are known only at admission).
 * @param activeDecodeBlocks  distinct KV blocks in use by running sequences (a shared prefix counts once).
 * @param totalKvBlocks       the rank's KV capacity in blocks.
 * @param runningRequests     requests admitted (prefilling or decoding).
 * @param waitingRequests     requests queued in the engine, not yet admitted.
 * @param prefixCacheHitRate  mean prompt fraction served from the prefix cache over the last 1000 admissions.
 * @param preemptions         requests preempted since start (KV cache exhausted during decode).
 * @param prefixCacheQueries  prompt tokens looked up in the prefix cache since start, one lookup per admission
 *                            (re-admissions after preemption included): vLLM's {@code vllm:prefix_cache_queries}.
 * @param prefixCacheHits     of those, the tokens found cached: vLLM's {@code vllm:prefix_cache_hits}.
 */
public record EngineLoad(int dpRank, long activePrefillTokens, long activeDecodeBlocks, long totalKvBlocks,
                         int runningRequests, int waitingRequests, double prefixCacheHitRate, long preemptions,
                         long prefixCacheQueries, long prefixCacheHits) {
    /** An idle rank. */
    public static EngineLoad idle(int dpRank, long totalKvBlocks) {
        return new EngineLoad(dpRank, 0, 0, totalKvBlocks, 0, 0, 0.0, 0, 0, 0);
    }

    /** A rank whose engine does not count its prefix-cache lookups (no queries, no hits). */
    public EngineLoad(int dpRank, long activePrefillTokens, long activeDecodeBlocks, long totalKvBlocks,
                      int runningRequests, int waitingRequests, double prefixCacheHitRate, long preemptions) {
        this(dpRank, activePrefillTokens, activeDecodeBlocks, totalKvBlocks, runningRequests, waitingRequests,
            prefixCacheHitRate, preemptions, 0, 0);
    }

    /** Fraction of KV blocks in use, {@code activeDecodeBlocks / totalKvBlocks} (Dynamo's gpu_cache_usage_perc). */
    public double kvUsage() {
        return totalKvBlocks == 0 ? 0.0 : (double) activeDecodeBlocks / totalKvBlocks;
    }

    /** True when nothing is running or waiting and no KV block is in use. */
    public boolean isIdle() {
        return runningRequests == 0 && waitingRequests == 0 && activeDecodeBlocks == 0;
    }
}
