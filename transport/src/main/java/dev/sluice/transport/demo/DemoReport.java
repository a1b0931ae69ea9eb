package dev.sluice.transport.demo;

import dev.sluice.core.audit.RequestFigures;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.router.RouterStatistics;
import dev.sluice.transport.simulation.ClusterReport;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * What a simulated demo run measured: the router's {@link RequestFigures} from its decisions ({@link ClassTally}),
 * the figures {@code journal stats} prints from the journal of the same run, with the simulation's report, and how
 * the in-process demo prints them. Built once after the run; not thread-safe.
 */
final class DemoReport {
    /** Every request's figures, the profile's classes first. */
    final RequestFigures figures;
    /** The totals of {@link #figures}. */
    final RequestFigures.ClassFigures total;
    /** Rejections by {@code reason (status)}. */
    final Map<String, Long> rejections;
    /** The classes requests reached, in the profile's order. */
    final Map<String, ClassLine> byClass = new LinkedHashMap<>();
    final ClusterReport simulation;
    /** Requests whose router trace does not show exactly one terminal event. */
    private final long unbalanced;

    /** One policy class's share of the run, for the what-if replay; histograms in milliseconds. */
    static final class ClassLine {
        final Histogram queueWaitMs = ClassRow.histogram();
        final Histogram ttftMs = ClassRow.histogram();
        long arrived;
        /** Admitted: dispatched to a worker. */
        long dispatched;
        long rejected;
    }

    private DemoReport(RequestFigures figures, ClusterReport simulation, long unbalanced) {
        this.figures = figures;
        this.total = figures.total();
        this.rejections = total.rejections();
        this.simulation = simulation;
        this.unbalanced = unbalanced;
    }

    /** The report of a run whose router was observed by {@code tally}. */
    static DemoReport of(PolicyProfile profile, ClassTally tally, ClusterReport simulation) {
        long unbalanced = 0;
        for (ClassTally.Trace trace : tally.traces()) {
            unbalanced += trace.terminals == 1 ? 0 : 1;
        }
        DemoReport report = new DemoReport(tally.figures(), simulation, unbalanced);
        report.figures.reached().forEach((name, f) -> {
            ClassLine line = new ClassLine();
            line.arrived = f.arrived();
            line.dispatched = f.admitted();
            line.rejected = f.count(RequestFigures.Outcome.REJECTED);
            millis(f.queueWaitUs(), line.queueWaitMs);
            millis(f.ttftUs(), line.ttftMs);
            report.byClass.put(name, line);
        });
        return report;
    }

    private static void millis(Histogram micros, Histogram ms) {
        for (var value : micros.recordedValues()) {
            ms.recordValueWithCount(Math.min(ms.getHighestTrackableValue(), value.getValueIteratedTo() / 1_000),
                value.getCountAtValueIteratedTo());
        }
    }

    /** Every request ended exactly once, on both the router's side and the simulated clients'. */
    boolean balanced() {
        return simulation.balanced() && unbalanced == 0 && total.arrived() == simulation.turnsSubmitted()
            && total.count(RequestFigures.Outcome.OPEN) == 0;
    }

    void print(PrintStream out) {
        RouterStatistics stats = simulation.router();
        double simulatedS = simulation.endNs() / 1e9;
        long completed = total.count(RequestFigures.Outcome.COMPLETED);
        out.printf("  simulated %.1f s of traffic in %.2f s of wall time (%.0fx real time)%n", simulatedS,
            simulation.wallNs() / 1e9, simulation.endNs() / (double) Math.max(1, simulation.wallNs()));
        out.printf("  requests     arrived %d, queued %d, admitted %d, completed %d, rejected %d, aborted %d%n",
            total.arrived(), total.queued(), total.admitted(), completed, total.count(RequestFigures.Outcome.REJECTED),
            total.count(RequestFigures.Outcome.ABORTED));
        out.printf("  classifier   deferred %d, parked %d; queue deadlines expired %d%n", total.deferred(),
            total.parked(), stats.expired());
        out.println("  rejections   by reason (status) and class:");
        figures.rejectionsByReason().forEach((reason, classes) -> out.printf("                 %-34s %6d   %s%n",
            reason, SummaryPrinter.sum(classes), SummaryPrinter.text(classes)));
        out.printf("  queue wait   p50 %s ms, p99 %s ms, max %s ms (admitted requests)%n",
            RequestFigures.ms(total.queueWaitUs(), 50), RequestFigures.ms(total.queueWaitUs(), 99),
            RequestFigures.ms(total.queueWaitUs(), 100));
        out.printf("  TTFT         p50 %s ms, p99 %s ms, max %s ms%n", RequestFigures.ms(total.ttftUs(), 50),
            RequestFigures.ms(total.ttftUs(), 99), RequestFigures.ms(total.ttftUs(), 100));
        out.printf("  throughput   %.1f completed requests/s%n", completed / Math.max(1e-9, simulatedS));
        out.printf("  prefix cache %.1f%% of prompt tokens served from the engines' prefix caches; %d preemptions"
            + " (KV cache full)%n", simulation.prefill().hitRate() * 100, simulation.prefill().preemptions());
        out.printf("  per class    %-20s %8s %7s %9s %9s %8s %8s %17s %17s%n", "class", "arrived", "queued",
            "admitted", "completed", "rejected", "aborted", "wait p50/p99", "TTFT p50/p99");
        figures.reached().forEach((name, f) -> out.printf("               %-20s %8d %7d %9d %9d %8d %8d %17s %17s%n",
            name, f.arrived(), f.queued(), f.admitted(), f.count(RequestFigures.Outcome.COMPLETED),
            f.count(RequestFigures.Outcome.REJECTED), f.count(RequestFigures.Outcome.ABORTED),
            RequestFigures.percentiles(f.queueWaitUs()), RequestFigures.percentiles(f.ttftUs())));
        RequestFigures.DEFINITIONS.forEach(line -> out.println("               " + line));
        out.printf("  accounting   every request ended exactly once: %s (live lifecycles left: %d)%n",
            balanced() ? "yes" : "NO", stats.live());
    }
}
