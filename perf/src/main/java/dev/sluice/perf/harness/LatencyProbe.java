package dev.sluice.perf.harness;

import org.HdrHistogram.Histogram;

/**
 * Decision latencies of one trial: submit's intended time to the dispatch callback, recorded only for requests
 * intended inside the measurement window (after warm-up). Written by one thread at a time (the router's scheduler
 * thread, or whoever holds the baseline's lock); read by the harness after the trial has drained.
 */
final class LatencyProbe {
    private final Histogram histogram = new Histogram(60_000_000_000L, 3);
    private final long recordFrom;
    private final long recordUntil;
    private volatile long dispatched;
    private volatile long rejected;
    private volatile long windowDispatched;
    private volatile long windowRejected;
    private volatile long lastDispatchAt;

    LatencyProbe(long recordFrom, long recordUntil) {
        this.recordFrom = recordFrom;
        this.recordUntil = recordUntil;
    }

    /** One dispatch, seen now, of a request intended at {@code intended}. Single writer at a time. */
    void dispatched(long intended, long now) {
        if (intended >= recordFrom && intended < recordUntil) {
            histogram.recordValue(Math.max(0, now - intended));
            windowDispatched = windowDispatched + 1;
            lastDispatchAt = now;
        }
        dispatched = dispatched + 1;
    }

    /**
     * One rejection (a full ingress ring) of a request intended at {@code intended}; counted in {@link #outcomes()},
     * and in {@link #rejectedCount()} when inside the window. May be called from a generator thread, hence
     * synchronized.
     */
    synchronized void rejected(long intended) {
        if (intended >= recordFrom && intended < recordUntil) {
            windowRejected = windowRejected + 1;
        }
        rejected = rejected + 1;
    }

    long outcomes() {
        return dispatched + rejected;
    }

    long rejectedCount() {
        return windowRejected;
    }

    long windowDispatched() {
        return windowDispatched;
    }

    long lastDispatchAt() {
        return lastDispatchAt;
    }

    Histogram histogram() {
        return histogram;
    }
}
