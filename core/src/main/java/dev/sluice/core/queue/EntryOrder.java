package dev.sluice.core.queue;

import dev.sluice.core.config.QueuePolicy;

/**
 * The order inside a policy class (Dynamo §5.3): higher strict priority, then earlier {@code dueAt} (any deadline
 * before none), then higher policy score, then earlier enqueue sequence. The score is folded into
 * {@link QueueEntry#orderKey} once at enqueue, lower key first, so a comparison is four integer compares.
 *
 * <p>FCFS score {@code jump - arrivalSeconds} is compared as {@code enqueuedAt - jumpNanos}: a double of an absolute
 * nanosecond clock would lose the sub-microsecond differences that order arrivals. WSPT score
 * {@code (1 + jump) / cost} is always positive, and the raw bits of positive doubles order like the values, so the
 * negated bits sort the highest score first.
 *
 * <p>Stateless.
 */
final class EntryOrder {
    private static final double NANOS_PER_SECOND = 1e9;

    private EntryOrder() {
    }

    /** True when {@code a} dispatches before {@code b}; a strict total order because sequences are unique. */
    static boolean before(QueueEntry a, QueueEntry b) {
        int pa = a.strictPriority();
        int pb = b.strictPriority();
        if (pa != pb) {
            return pa > pb;
        }
        long da = a.dueAt();
        long db = b.dueAt();
        if (da != db) {
            return da < db;
        }
        if (a.orderKey != b.orderKey) {
            return a.orderKey < b.orderKey;
        }
        return a.sequence < b.sequence;
    }

    /** The policy-score key of an entry, lower first; computed once, at enqueue. */
    static long orderKey(QueuePolicy policy, QueueEntry entry) {
        if (policy == QueuePolicy.WSPT) {
            double score = (1.0 + entry.priorityJump()) / entry.costTokens();
            return -Double.doubleToLongBits(score);
        }
        return saturatingSubtract(entry.enqueuedAt(), jumpNanos(entry.priorityJump()));
    }

    /** A non-negative priority jump in whole nanoseconds, saturating (NaN counts as no jump). */
    static long jumpNanos(double jumpSeconds) {
        double nanos = jumpSeconds * NANOS_PER_SECOND;
        if (!(nanos > 0)) {
            return 0;
        }
        return nanos >= Long.MAX_VALUE ? Long.MAX_VALUE : Math.round(nanos);
    }

    private static long saturatingSubtract(long a, long b) {
        long r = a - b;
        if (((a ^ b) & (a ^ r)) < 0) {
            return b > 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return r;
    }
}
