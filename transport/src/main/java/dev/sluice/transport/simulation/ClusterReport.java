package dev.sluice.transport.simulation;

import dev.sluice.core.router.RouterStatistics;
import dev.sluice.transport.engine.sim.PrefillCounters;

/**
 * What one cluster run measured. Immutable.
 *
 * <p>Definitions. A turn is one request. Throughput counts turns that completed inside the load window. TTFT runs
 * from router ingress to the first generated token and queue wait from ingress to dispatch (parked, deferred and
 * queued time); both over every turn that got that far. The engines' prefill work comes from the fleet's
 * {@link PrefillCounters}: {@code prefill.hitRate()} is the token-weighted prefix-cache hit rate of every prefill
 * the engines started (re-admissions after preemption included). <b>Re-prefilled tokens</b> are the prompt tokens
 * the engines computed beyond the essential ones, where a turn's essential tokens are what an engine with an
 * unbounded cache, holding the session where its previous turn ran, would still compute: the prompt minus the
 * previous turn's whole context (prompt + answer) rounded down to complete KV blocks; for a first turn, the prompt
 * minus its system prompt's complete blocks once an earlier turn has used that system prompt. So re-prefill is the
 * cost of evictions, preemptions and placements away from the cached prefix.
 *
 * @param label            the run's name.
 * @param windowNs         the load window.
 * @param endNs            when the last turn ended (virtual time).
 * @param sessions         sessions started.
 * @param sessionsFinished sessions whose every turn completed.
 * @param turnsSubmitted   turns submitted to the router.
 * @param turnsCompleted   turns completed (any time).
 * @param turnsInWindow    turns completed within the load window.
 * @param rejected         turns the router rejected.
 * @param gaveUp           turns whose client gave up waiting for the first token.
 * @param cutAtEnd         turns cancelled because the drain limit was reached.
 * @param failed           turns an engine failed.
 * @param duplicateEnds    outcomes heard for a turn that had already ended (must be 0).
 * @param ttftP50Ms        TTFT median, ms.
 * @param ttftP99Ms        TTFT 99th percentile, ms.
 * @param waitP50Ms        queue wait median, ms.
 * @param waitP99Ms        queue wait 99th percentile, ms.
 * @param prefill          the fleet's prefill counters.
 * @param essentialTokens  the essential prefill tokens of the dispatched turns.
 * @param router           the router's counters at the end.
 * @param wallNs           wall-clock time the run took.
 */
public record ClusterReport(String label, long windowNs, long endNs, long sessions, long sessionsFinished,
                            long turnsSubmitted, long turnsCompleted, long turnsInWindow, long rejected, long gaveUp,
                            long cutAtEnd, long failed, long duplicateEnds, double ttftP50Ms, double ttftP99Ms,
                            double waitP50Ms, double waitP99Ms, PrefillCounters prefill, long essentialTokens,
                            RouterStatistics router, long wallNs) {
    /** Turns completed within the load window, per minute of it. */
    public double turnsPerMinute() {
        return turnsInWindow * 60e9 / windowNs;
    }

    /** Prompt tokens computed beyond the essential ones (see the class comment); never negative. */
    public long rePrefilledTokens() {
        return Math.max(0, prefill.computedTokens() - essentialTokens);
    }

    /** Every submitted turn ended exactly once, and the router holds no request. */
    public boolean balanced() {
        return duplicateEnds == 0 && router.live() == 0
            && turnsSubmitted == turnsCompleted + rejected + gaveUp + cutAtEnd + failed;
    }
}
