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
 */
public record PrefillCounters(long prefills, long promptTokens, long computedTokens, long preemptions) {
    /** No work. */
    public static final PrefillCounters ZERO = new PrefillCounters(0, 0, 0, 0);

    /** The sum of this and {@code other}, for a fleet total. */
    public PrefillCounters plus(PrefillCounters other) {
        return new PrefillCounters(prefills + other.prefills, promptTokens + other.promptTokens,
            computedTokens + other.computedTokens, preemptions + other.preemptions);
    }

    /** Token-weighted prefix-cache hit rate: {@code 1 - computed / prompt tokens}, 0 without prefills. */
    public double hitRate() {
        return promptTokens == 0 ? 0.0 : Math.max(0.0, 1.0 - (double) computedTokens / promptTokens);
    }
}
