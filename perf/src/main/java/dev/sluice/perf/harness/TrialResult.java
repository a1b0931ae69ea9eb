package dev.sluice.perf.harness;

import org.HdrHistogram.Histogram;

/**
 * The outcome of one open-loop trial: what was offered, what was achieved inside the measurement window, and the
 * decision-latency histogram (nanoseconds, coordinated-omission corrected: measured from the intended send time);
 * and, over the whole trial (warm-up included), the decisions made, the CPU time of the controller's own threads and
 * the time the generators spent inside {@code submit}.
 */
record TrialResult(String target, long offeredPerSecond, double achievedPerSecond, long measured, long rejected,
                   boolean drained, Histogram histogram, long decisions, long controllerCpuNs, long callerNs) {
    /** The controller's own threads' CPU time per decision, ns (sluice's scheduler; 0 for the baseline). */
    double controllerCpuPerDecision() {
        return decisions == 0 ? 0 : (double) controllerCpuNs / decisions;
    }

    /** Time the submitting threads spent inside {@code submit} per decision, ns (the baseline decides there). */
    double callerPerDecision() {
        return decisions == 0 ? 0 : (double) callerNs / decisions;
    }

    /** Both: what one decision costs in CPU, ns. */
    double cpuPerDecision() {
        return controllerCpuPerDecision() + callerPerDecision();
    }

    double micros(double percentile) {
        return histogram.getValueAtPercentile(percentile) / 1000.0;
    }

    double maxMicros() {
        return histogram.getMaxValue() / 1000.0;
    }
}
