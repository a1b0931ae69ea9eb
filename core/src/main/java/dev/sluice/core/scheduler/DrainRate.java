package dev.sluice.core.scheduler;

import dev.sluice.core.api.AdmissionError;

/**
 * How fast each policy class has recently been draining (an exponentially weighted mean of the interval between
 * its dispatches), and from it the {@code Retry-After} of a rejection: the time the class needs to work off its
 * backlog, clamped to 1..60 s. Owned by the scheduler thread; not thread-safe.
 */
final class DrainRate {
    private static final long MIN_RETRY_NS = 1_000_000_000L;
    private static final long MAX_RETRY_NS = 60_000_000_000L;
    /** Weight of the newest interval: about the last 16 dispatches count. */
    private static final double ALPHA = 1.0 / 16;

    private long[] lastDispatchAt;
    private double[] meanIntervalNs;

    DrainRate(int classes) {
        lastDispatchAt = new long[classes];
        meanIntervalNs = new double[classes];
        java.util.Arrays.fill(lastDispatchAt, Long.MIN_VALUE);
    }

    /** A policy reload: a class of the same name keeps its history, a new one starts without. */
    void remap(dev.sluice.core.config.PolicyProfile from, dev.sluice.core.config.PolicyProfile to) {
        int n = to.classes().size();
        long[] last = new long[n];
        double[] mean = new double[n];
        java.util.Arrays.fill(last, Long.MIN_VALUE);
        for (int i = 0; i < n; i++) {
            int old = from.classIndex(to.classes().get(i).name());
            if (old >= 0) {
                last[i] = lastDispatchAt[old];
                mean[i] = meanIntervalNs[old];
            }
        }
        lastDispatchAt = last;
        meanIntervalNs = mean;
    }

    /** A request of the class was dispatched now. */
    void onDispatch(int classIndex, long nowNs) {
        long last = lastDispatchAt[classIndex];
        if (last != Long.MIN_VALUE) {
            double interval = nowNs - last;
            double mean = meanIntervalNs[classIndex];
            meanIntervalNs[classIndex] = mean == 0 ? interval : mean + ALPHA * (interval - mean);
        }
        lastDispatchAt[classIndex] = nowNs;
    }

    /** When a retry into this class may succeed, given its backlog; 1 s without a history. */
    long retryAfterNanos(int classIndex, int backlog) {
        if (classIndex < 0 || meanIntervalNs[classIndex] == 0) {
            return MIN_RETRY_NS;
        }
        double estimate = meanIntervalNs[classIndex] * Math.max(1, backlog);
        return (long) Math.max(MIN_RETRY_NS, Math.min(MAX_RETRY_NS, estimate));
    }

    /** The router's own rejection with its {@code Retry-After}; an error that already has one is kept. */
    AdmissionError stamp(AdmissionError error, int classIndex, int backlog) {
        if (error.retryAfterNanos() > 0) {
            return error;
        }
        return error.retryAfter(java.time.Duration.ofNanos(retryAfterNanos(classIndex, backlog)));
    }
}
