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
    final Map<String, ClassLine> byClass = new java.util.LinkedHashMap<>();
    long arrived;
    long completed;
    long clientsLeft;
    long simulatedNs;
    long wallNs;
    RouterStatistics stats;
    private final int overloadStatus = OverloadStatus.DEFAULT;

    /** One policy class's share of the run. */
    static final class ClassLine {
        final Histogram queueWaitMs = FleetSimulation.histogram();
        final Histogram ttftMs = FleetSimulation.histogram();
        long arrived;
        long dispatched;
        long rejected;
    }

    ClassLine forClass(String name) {
        return byClass.computeIfAbsent(name, n -> new ClassLine());
    }

    void rejection(AdmissionError error) {
        rejections.merge(error.reason() + " (" + error.httpStatus(overloadStatus) + ")", 1L, Long::sum);
    }

    /** Every request ended exactly once and no lifecycle is left. */
    boolean balanced() {
        return stats.live() == 0 && arrived == completed + rejected() + clientsLeftAfterDispatch();
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
        out.println("  per class    (class resolved from the request's header and uncached tokens)");
        out.printf("                 %-20s %8s %10s %8s %14s %14s%n", "class", "arrived", "dispatched", "rejected",
            "wait p50 ms", "wait p99 ms");
        byClass.forEach((name, line) -> out.printf("                 %-20s %8d %10d %8d %14d %14d%n", name,
            line.arrived, line.dispatched, line.rejected, line.queueWaitMs.getValueAtPercentile(50),
            line.queueWaitMs.getValueAtPercentile(99)));
        boolean balanced = balanced();
        out.printf("  accounting   every request ended exactly once: %s (live lifecycles left: %d)%n",
            balanced ? "yes" : "NO", stats.live());
    }

    /** Clients that left after dispatch end without a rejection; those before dispatch were counted as rejected. */
    long clientsLeftAfterDispatch() {
        return clientsLeft - rejections.getOrDefault("cancelled (499)", 0L);
    }
}
