package dev.sluice.transport.metrics;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * A latency histogram written by the scheduler thread without allocation or locks (an HdrHistogram
 * {@link Recorder}) and read by scrapes as a Prometheus histogram with fixed buckets. Values are microseconds.
 */
final class LatencyHistogram {
    /** Bucket upper bounds in seconds, as Prometheus {@code le} labels. */
    static final double[] BUCKETS_SECONDS = {0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
        0.5, 1, 2.5, 5, 10, 30, 60};

    private final Recorder recorder = new Recorder(3_600_000_000L, 3);
    private final Histogram total = new Histogram(3_600_000_000L, 3);
    private Histogram interval;

    /** Records one latency; scheduler thread (any single writer). */
    void recordNanos(long nanos) {
        recorder.recordValue(Math.min(Math.max(0, nanos / 1_000), 3_600_000_000L));
    }

    /** Folds everything recorded since the last scrape into the running total and returns it. */
    synchronized Histogram snapshot() {
        interval = recorder.getIntervalHistogram(interval);
        total.add(interval);
        return total.copy();
    }
}
