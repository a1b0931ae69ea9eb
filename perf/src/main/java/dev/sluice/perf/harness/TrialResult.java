package dev.sluice.perf.harness;

import org.HdrHistogram.Histogram;

/**
 * The outcome of one open-loop trial: what was offered, what was achieved inside the measurement window, and the
 * decision-latency histogram (nanoseconds, coordinated-omission corrected: measured from the intended send time).
 */
record TrialResult(String target, long offeredPerSecond, double achievedPerSecond, long measured, long rejected,
                   boolean drained, Histogram histogram) {
    double micros(double percentile) {
        return histogram.getValueAtPercentile(percentile) / 1000.0;
    }

    double maxMicros() {
        return histogram.getMaxValue() / 1000.0;
    }
}
