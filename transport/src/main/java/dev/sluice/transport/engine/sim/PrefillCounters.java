package dev.sluice.transport.engine.sim;

/**
 * Cumulative prefill work of one simulated rank since it started. A prefill starts when an admitted request's
 * KV blocks are allocated (again after each preemption); its prompt tokens are then either found in the prefix
 * cache or computed, chunk by chunk, in forward passes. Immutable.
 *
 * @param prefills       prefills started (admissions that got their blocks, re-admissions after preemption included).
 * @param promptTokens   prompt tokens of those prefills.
 * @param computedTokens prompt tokens actually computed in forward passes (uncached, charged prefill time); a
 *                       prefill cut short by a cancellation counts the chunks it ran.
 * @param preemptions    requests preempted during decode (their prompt is prefilled again on re-admission).
 * @param queryTokens    prompt tokens looked up in the prefix cache, as the engine's hit-rate metric counts them:
 *                       vLLM v1 counts each request's first lookup only (lookups on resuming a preempted request
 *                       are kept apart), the mocker every admission.
 * @param hitTokens      of those, the tokens found cached.
 */
public record PrefillCounters(long prefills, long promptTokens, long computedTokens, long preemptions,
                              long queryTokens, long hitTokens) {
    /** No work. */
    public static final PrefillCounters ZERO = new PrefillCounters(0, 0, 0, 0, 0, 0);

    /** The sum of this and {@code other}, for a fleet total. */
    public PrefillCounters plus(PrefillCounters other) {
        return new PrefillCounters(prefills + other.prefills, promptTokens + other.promptTokens,
            computedTokens + other.computedTokens, preemptions + other.preemptions, queryTokens + other.queryTokens,
            hitTokens + other.hitTokens);
    }

    /** This minus {@code earlier}: the work between two readings. */
    public PrefillCounters minus(PrefillCounters earlier) {
        return new PrefillCounters(prefills - earlier.prefills, promptTokens - earlier.promptTokens,
            computedTokens - earlier.computedTokens, preemptions - earlier.preemptions,
            queryTokens - earlier.queryTokens, hitTokens - earlier.hitTokens);
    }

    /** The engine's prefix-cache hit rate metric ({@code vllm:prefix_cache_hits / queries}), 0 without lookups. */
    public double prefixHitRate() {
        return queryTokens == 0 ? 0.0 : (double) hitTokens / queryTokens;
    }

    /** Token-weighted prefix-cache hit rate: {@code 1 - computed / prompt tokens}, 0 without prefills. */
    public double hitRate() {
        return promptTokens == 0 ? 0.0 : Math.max(0.0, 1.0 - (double) computedTokens / promptTokens);
    }
}
