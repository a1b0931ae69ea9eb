package dev.sluice.transport.demo;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.OverloadStatus;
import dev.sluice.core.router.RouterStatistics;
import java.io.PrintStream;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/** What the demo measured, and how it prints. */
final class DemoReport {
    final Histogram queueWaitMs = FleetSimulation.histogram();
    final Histogram ttftMs = FleetSimulation.histogram();
    final Map<String, Long> rejections = new TreeMap<>();
    long arrived;
    long completed;
    long clientsLeft;
    long simulatedNs;
    long wallNs;
    RouterStatistics stats;
    private final int overloadStatus = OverloadStatus.DEFAULT;

    void rejection(AdmissionError error) {
        rejections.merge(error.reason() + " (" + error.httpStatus(overloadStatus) + ")", 1L, Long::sum);
    }

    long rejected() {
        return rejections.values().stream().mapToLong(Long::longValue).sum();
    }

    void print(PrintStream out) {
        double simulatedS = simulatedNs / 1e9;
        out.printf("  simulated %.1f s of traffic in %.2f s of wall time (%.0fx real time)%n", simulatedS,
            wallNs / 1e9, simulatedNs / (double) Math.max(1, wallNs));
        out.printf("  requests     arrived %d, dispatched %d, completed %d, rejected %d, clients left %d%n",
            arrived, stats.dispatched(), completed, rejected(), clientsLeft);
        out.printf("  classifier   deferred %d, parked %d; queue deadlines expired %d%n", stats.deferred(),
            stats.parked(), stats.expired());
        out.println("  rejections   by reason (status):");
        rejections.forEach((reason, count) -> out.printf("                 %-34s %6d%n", reason, count));
        out.printf("  queue wait   p50 %d ms, p99 %d ms, max %d ms (dispatched requests)%n",
            queueWaitMs.getValueAtPercentile(50), queueWaitMs.getValueAtPercentile(99), queueWaitMs.getMaxValue());
        out.printf("  TTFT         p50 %d ms, p99 %d ms, max %d ms%n", ttftMs.getValueAtPercentile(50),
            ttftMs.getValueAtPercentile(99), ttftMs.getMaxValue());
        out.printf("  throughput   %.1f completed requests/s%n", completed / Math.max(1e-9, simulatedS));
        boolean balanced = arrived == completed + rejected() + clientsLeftAfterDispatch() && stats.live() == 0;
        out.printf("  accounting   every request ended exactly once: %s (live lifecycles left: %d)%n",
            balanced ? "yes" : "NO", stats.live());
    }

    /** Clients that left after dispatch end without a rejection; those before dispatch were counted as rejected. */
    long clientsLeftAfterDispatch() {
        return clientsLeft - rejections.getOrDefault("cancelled (499)", 0L);
    }
}
