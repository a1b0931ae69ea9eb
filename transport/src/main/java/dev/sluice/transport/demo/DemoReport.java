package dev.sluice.transport.demo;

import dev.sluice.core.api.ErrorClass;
import dev.sluice.core.api.OverloadStatus;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.router.RouterStatistics;
import dev.sluice.transport.simulation.ClusterReport;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * What a simulated demo run measured, from the router's decisions ({@link ClassTally}) and the simulation's report,
 * and how the in-process demo prints it. A client that left before its dispatch counts as a {@code cancelled}
 * rejection, as it heard one. Built once after the run; not thread-safe.
 */
final class DemoReport {
    private static final int OVERLOAD_STATUS = OverloadStatus.DEFAULT;
    private static final String CANCELLED = "cancelled (" + ErrorClass.CANCELLED.httpStatus(OVERLOAD_STATUS) + ")";

    final Histogram queueWaitMs = ClassRow.histogram();
    final Histogram ttftMs = ClassRow.histogram();
    final Map<String, Long> rejections = new TreeMap<>();
    /** The classes requests reached, in the profile's order. */
    final Map<String, ClassLine> byClass = new LinkedHashMap<>();
    final ClusterReport simulation;
    long arrived;
    long completed;
    long clientsLeft;
    private long leftBeforeDispatch;
    /** Requests whose router trace does not show exactly one terminal event. */
    private long unbalanced;

    /** One policy class's share of the run; histograms in milliseconds. */
    static final class ClassLine {
        final Histogram queueWaitMs = ClassRow.histogram();
        final Histogram ttftMs = ClassRow.histogram();
        long arrived;
        long dispatched;
        long rejected;
    }

    private DemoReport(ClusterReport simulation) {
        this.simulation = simulation;
    }

    /** The report of a run whose router was observed by {@code tally}. */
    static DemoReport of(PolicyProfile profile, ClassTally tally, ClusterReport simulation) {
        DemoReport report = new DemoReport(simulation);
        ClassLine[] lines = new ClassLine[profile.classes().size()];
        for (int c = 0; c < lines.length; c++) {
            lines[c] = new ClassLine();
        }
        for (ClassTally.Trace trace : tally.traces()) {
            report.add(trace, lines[trace.classIndex]);
        }
        for (int c = 0; c < lines.length; c++) {
            if (lines[c].arrived > 0) {
                report.byClass.put(profile.classes().get(c).name(), lines[c]);
            }
        }
        return report;
    }

    private void add(ClassTally.Trace trace, ClassLine line) {
        arrived++;
        line.arrived++;
        unbalanced += trace.terminals == 1 ? 0 : 1;
        if (trace.dispatchedNs >= 0) {
            line.dispatched++;
            record(trace.dispatchedNs - trace.arrivedNs, queueWaitMs, line.queueWaitMs);
        }
        if (trace.respondingNs >= 0) {
            record(trace.respondingNs - trace.arrivedNs, ttftMs, line.ttftMs);
        }
        if (trace.terminal == ClientTally.Kind.COMPLETED) {
            completed++;
        } else if (trace.terminal == ClientTally.Kind.LEFT) {
            clientsLeft++;
            leftBeforeDispatch += trace.dispatchedNs < 0 ? 1 : 0;
        }
        String rejection = trace.terminal == ClientTally.Kind.REJECTED ? trace.reason + " (" + trace.status + ")"
            : trace.terminal == ClientTally.Kind.LEFT && trace.dispatchedNs < 0 ? CANCELLED : null;
        if (rejection != null) {
            rejections.merge(rejection, 1L, Long::sum);
            line.rejected++;
        }
    }

    private static void record(long ns, Histogram all, Histogram ofClass) {
        long ms = Math.min(all.getHighestTrackableValue(), Math.max(0, ns / 1_000_000L));
        all.recordValue(ms);
        ofClass.recordValue(ms);
    }

    /** Every request ended exactly once, on both the router's side and the simulated clients'. */
    boolean balanced() {
        return simulation.balanced() && unbalanced == 0 && arrived == simulation.turnsSubmitted()
            && arrived == completed + rejected() + clientsLeftAfterDispatch();
    }

    long rejected() {
        return rejections.values().stream().mapToLong(Long::longValue).sum();
    }

    void print(PrintStream out) {
        RouterStatistics stats = simulation.router();
        double simulatedS = simulation.endNs() / 1e9;
        out.printf("  simulated %.1f s of traffic in %.2f s of wall time (%.0fx real time)%n", simulatedS,
            simulation.wallNs() / 1e9, simulation.endNs() / (double) Math.max(1, simulation.wallNs()));
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
        out.printf("  prefix cache %.1f%% of prompt tokens served from the engines' prefix caches; %d preemptions"
            + " (KV cache full)%n", simulation.prefill().hitRate() * 100, simulation.prefill().preemptions());
        out.println("  per class    (the class a request joined; before that, the one its header and size point"
            + " to)");
        out.printf("                 %-20s %8s %10s %8s %14s %14s%n", "class", "arrived", "dispatched", "rejected",
            "wait p50 ms", "wait p99 ms");
        byClass.forEach((name, line) -> out.printf("                 %-20s %8d %10d %8d %14d %14d%n", name,
            line.arrived, line.dispatched, line.rejected, line.queueWaitMs.getValueAtPercentile(50),
            line.queueWaitMs.getValueAtPercentile(99)));
        out.printf("  accounting   every request ended exactly once: %s (live lifecycles left: %d)%n",
            balanced() ? "yes" : "NO", stats.live());
    }

    /** Clients that left after dispatch end without a rejection; those before dispatch were counted as rejected. */
    long clientsLeftAfterDispatch() {
        return clientsLeft - leftBeforeDispatch;
    }
}
