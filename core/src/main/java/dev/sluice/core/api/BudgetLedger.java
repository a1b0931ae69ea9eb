package dev.sluice.core.api;

import java.nio.charset.StandardCharsets;

/**
 * The arithmetic of one shared bucket, the same for every {@link SharedBudgets} store so that they agree to the
 * unit: a per-minute bucket kept as its theoretical arrival time (the generic cell rate algorithm), the instant the
 * bucket would be full again, in nanoseconds of the wall clock every replica shares (epoch time: a monotonic clock is
 * per process). A store reads the state, computes the step here and writes it back with compare-and-set, retrying
 * on conflict. Stateless and thread-safe.
 */
public final class BudgetLedger {
    /** The bucket holds, and refills over, one minute. */
    public static final long WINDOW_NS = 60_000_000_000L;
    /** The largest limit; keeps the arithmetic exact in 64 bits. */
    public static final long MAX_PER_MINUTE = 100_000_000L;

    /**
     * One claim's outcome: the state to write (unchanged when denied) and the grant.
     *
     * @param fullAt the bucket's new theoretical arrival time.
     * @param grant  what the claim got.
     */
    public record Step(long fullAt, BudgetGrant grant) {
    }

    private BudgetLedger() {
    }

    /**
     * Claims between {@code minUnits} and {@code maxUnits} (each capped at the limit) from a bucket whose state is
     * {@code fullAt} ({@link Long#MIN_VALUE}: a new, full bucket) at epoch time {@code nowNs}.
     */
    public static Step claim(long fullAt, long nowNs, long limitPerMinute, long minUnits, long maxUnits) {
        checkLimit(limitPerMinute);
        long min = Math.min(Math.max(minUnits, 0), limitPerMinute);
        long max = Math.min(Math.max(maxUnits, min), limitPerMinute);
        long available = available(fullAt, nowNs, limitPerMinute);
        if (available < min) {
            return new Step(fullAt, new BudgetGrant(0, waitNs(fullAt, nowNs, limitPerMinute, min)));
        }
        long units = Math.min(max, available);
        return new Step(chargedUntil(fullAt, nowNs, limitPerMinute, units), new BudgetGrant(units, 0));
    }

    /**
     * Nanoseconds until {@code units} (capped at the limit) fit a bucket at {@code fullAt}; 0 when they fit now.
     * Allocation-free, for a bucket a replica keeps alone ({@code scope: replica}) as for the shared one.
     */
    public static long waitNs(long fullAt, long nowNs, long limitPerMinute, long units) {
        return Math.max(0, chargedUntil(fullAt, nowNs, limitPerMinute, units) - nowNs - WINDOW_NS);
    }

    /** The state after charging {@code units} (capped at the limit), fitting or not: past the window it is debt. */
    public static long chargedUntil(long fullAt, long nowNs, long limitPerMinute, long units) {
        long start = Math.max(fullAt, nowNs);
        return saturatedAdd(start, intervalNs(Math.min(Math.max(units, 0), limitPerMinute), limitPerMinute));
    }

    /** The whole units the bucket could take now; 0 in debt. */
    public static long available(long fullAt, long nowNs, long limitPerMinute) {
        long roomNs = nowNs + WINDOW_NS - Math.max(fullAt, nowNs);
        return roomNs <= 0 ? 0 : roomNs * limitPerMinute / WINDOW_NS;
    }

    /** The state after giving back {@code units}; the bucket never holds more than its limit. */
    public static long refund(long fullAt, long nowNs, long limitPerMinute, long units) {
        checkLimit(limitPerMinute);
        if (fullAt <= nowNs || units <= 0) {
            return fullAt;
        }
        long back = intervalNs(Math.min(units, limitPerMinute), limitPerMinute);
        return Math.max(nowNs, fullAt - back);
    }

    /** The state as a store keeps it: the decimal digits of {@code fullAt}. */
    public static byte[] encode(long fullAt) {
        return Long.toString(fullAt).getBytes(StandardCharsets.US_ASCII);
    }

    /** The state from {@link #encode}; {@code null} or empty is a new bucket. */
    public static long decode(byte[] value) {
        if (value == null || value.length == 0) {
            return Long.MIN_VALUE;
        }
        try {
            return Long.parseLong(new String(value, StandardCharsets.US_ASCII));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a shared bucket's state must be decimal nanoseconds, was \""
                + new String(value, StandardCharsets.US_ASCII) + "\"", e);
        }
    }

    /** The refill time of {@code units}, rounded up so that a bucket never refills early. */
    private static long intervalNs(long units, long limitPerMinute) {
        return -Math.floorDiv(-units * WINDOW_NS, limitPerMinute);
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }

    private static void checkLimit(long limitPerMinute) {
        if (limitPerMinute < 1 || limitPerMinute > MAX_PER_MINUTE) {
            throw new IllegalArgumentException("limitPerMinute must be 1.." + MAX_PER_MINUTE + ", was "
                + limitPerMinute);
        }
    }
}
