package dev.sluice.plugins.ratelimit;

import dev.sluice.core.api.BudgetLedger;

/**
 * A per-minute token bucket kept as a theoretical arrival time (the generic cell rate algorithm): the bucket holds
 * one minute of its limit, refills continuously, and a charge that does not fit tells exactly when it would. Costs
 * above the limit are charged as the full limit, so an oversized request needs a full bucket rather than never
 * passing. Integer arithmetic on the router's clock, so tests and replays see exact values: {@link BudgetLedger}'s,
 * the same a shared bucket of {@code scope: cluster} runs on.
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
final class RateBucket {
    private final long limitPerMinute;
    /** When the bucket would be full again if nothing more were charged; never in the past once read. */
    private long fullAt = Long.MIN_VALUE;

    RateBucket(long limitPerMinute) {
        this.limitPerMinute = limitPerMinute;
    }

    /** How long until {@code cost} fits, in nanoseconds from {@code nowNs}; 0 when it fits now. */
    long waitFor(long cost, long nowNs) {
        return BudgetLedger.waitNs(fullAt, nowNs, limitPerMinute, cost);
    }

    /** Charges {@code cost}; callers check {@link #waitFor} first unless they charge after the fact (debt). */
    void charge(long cost, long nowNs) {
        fullAt = BudgetLedger.chargedUntil(fullAt, nowNs, limitPerMinute, cost);
    }

    /** The whole units the bucket could take now, for diagnostics and tests. */
    long available(long nowNs) {
        return BudgetLedger.available(fullAt, nowNs, limitPerMinute);
    }
}
