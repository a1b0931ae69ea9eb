package dev.sluice.transport.demo;

import dev.sluice.core.audit.RequestFigures;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Prints a {@link DemoResult} as the demo's plain-text summary: per class the calls sent and failed (the clients'),
 * and the router's {@link RequestFigures}, which {@code journal stats} prints from the journal of the same run.
 * Stateless.
 */
final class SummaryPrinter {
    /** What only the clients count, printed with {@link RequestFigures#DEFINITIONS}. */
    static final List<String> CLIENT_FIGURES = List.of(
        "sent, failed: the demo's clients (failed: the connection failed or a stream broke);",
        "  every other figure is the router's, as journal stats prints it from the journal");

    private SummaryPrinter() {
    }

    static void print(DemoResult result, PrintStream out) {
        ClassRow all = result.total();
        out.println();
        out.printf("  requests     sent %d: completed %d, rejected %d, aborted %d, failed on the client %d%n",
            all.sent, all.count(RequestFigures.Outcome.COMPLETED), all.rejected(),
            all.count(RequestFigures.Outcome.ABORTED), all.failed);
        out.printf("  router       queued %d, admitted %d, deferred %d, parked %d (session turns), queue deadlines"
            + " expired %d%n", all.router.queued(), all.router.admitted(), all.router.deferred(),
            all.router.parked(), result.stats().expired());
        out.println("  per class    sent  queued  admitted  deferred  parked  completed  rejected  aborted  failed"
            + "   queue wait p50/p99      TTFT p50/p99");
        List<ClassRow> rows = new ArrayList<>(result.classes());
        rows.add(all);
        for (ClassRow row : rows) {
            RequestFigures.ClassFigures f = row.router;
            out.printf("    %-20s %5d %7d %9d %9d %7d %10d %9d %8d %7d %20s %17s%n", row.name, row.sent, f.queued(),
                f.admitted(), f.deferred(), f.parked(), row.count(RequestFigures.Outcome.COMPLETED), row.rejected(),
                row.count(RequestFigures.Outcome.ABORTED), row.failed, RequestFigures.percentiles(f.queueWaitUs()),
                RequestFigures.percentiles(f.ttftUs()));
        }
        for (String line : definitions()) {
            out.println("               " + line);
        }
        out.println("  rejections   by reason (status) and class:");
        Map<String, Map<String, Long>> reasons = result.rejectionsByReason();
        reasons.forEach((reason, classes) -> out.printf("    %-32s %6d   %s%n", reason, sum(classes), text(classes)));
        if (reasons.isEmpty()) {
            out.println("    none");
        }
        all.failures.forEach((reason, count) -> out.printf("  failed       %d: %s%n", count, reason));
        out.printf("  throughput   %.1f completed requests/s over %.1f s%n", result.throughput(),
            result.wallNs() / 1e9);
        out.printf("  prefix cache %.1f%% of prompt tokens served from the engines' prefix caches (mean over workers"
            + ", last 1000 admissions each); %d preemptions (KV cache full)%n", result.hitRate() * 100,
            result.preemptions());
        out.println("  accounting   " + result.accounting());
    }

    /** The figures' definitions, the router's and the clients'. */
    static List<String> definitions() {
        List<String> lines = new ArrayList<>(RequestFigures.DEFINITIONS);
        lines.addAll(CLIENT_FIGURES);
        return lines;
    }

    static long sum(Map<String, Long> counts) {
        long sum = 0;
        for (long count : counts.values()) {
            sum += count;
        }
        return sum;
    }

    /** {@code a=1, b=2}. */
    static String text(Map<String, Long> counts) {
        return counts.toString().replace("{", "").replace("}", "");
    }
}
