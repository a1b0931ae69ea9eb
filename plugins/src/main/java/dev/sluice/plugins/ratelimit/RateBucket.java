package dev.sluice.plugins.ratelimit;

/**
 * A per-minute token bucket kept as a theoretical arrival time (the generic cell rate algorithm): the bucket holds
 * one minute of its limit, refills continuously, and a charge that does not fit tells exactly when it would. Costs
 * above the limit are charged as the full limit, so an oversized request needs a full bucket rather than never
 * passing. Integer arithmetic on the router's clock, so tests and replays see exact values.
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
final class RateBucket {
    static final long WINDOW_NS = 60_000_000_000L;

    private final long limitPerMinute;
    /** When the bucket would be full again if nothing more were charged; never in the past once read. */
    private long fullAt = Long.MIN_VALUE;

    RateBucket(long limitPerMinute) {
        this.limitPerMinute = limitPerMinute;
    }

    /** How long until {@code cost} fits, in nanoseconds from {@code nowNs}; 0 when it fits now. */
    long waitFor(long cost, long nowNs) {
        long overflow = chargedUntil(cost, nowNs) - nowNs - WINDOW_NS;
        return Math.max(0, overflow);
    }

    /** Charges {@code cost}; callers check {@link #waitFor} first unless they charge after the fact (debt). */
    void charge(long cost, long nowNs) {
        fullAt = chargedUntil(cost, nowNs);
    }

    /** The whole units the bucket could take now, for diagnostics and tests. */
    long available(long nowNs) {
        long used = Math.min(WINDOW_NS, Math.max(0, fullAt - nowNs));
        return limitPerMinute - ceilDiv(used * limitPerMinute, WINDOW_NS);
    }

    private long chargedUntil(long cost, long nowNs) {
        long start = Math.max(fullAt, nowNs);
        return saturatedAdd(start, intervalNs(Math.min(Math.max(cost, 0), limitPerMinute)));
    }

    /**
     * The refill time of {@code units} (at most the limit), rounded up so that a bucket never refills early. The
     * limit is at most {@link RateLimitSettings#MAX_PER_MINUTE}, so the product cannot overflow.
     */
    private long intervalNs(long units) {
        return ceilDiv(units * WINDOW_NS, limitPerMinute);
    }

    private static long ceilDiv(long a, long b) {
        return -Math.floorDiv(-a, b);
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }
}
