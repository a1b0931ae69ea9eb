package dev.sluice.transport.demo;

import java.io.PrintStream;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/** Prints a {@link DemoResult} as the demo's plain-text summary. Stateless. */
final class SummaryPrinter {
    private SummaryPrinter() {
    }

    static void print(DemoResult result, PrintStream out) {
        ClassRow all = result.total();
        out.println();
        out.printf("  requests     sent %d: completed %d, rejected %d, clients left mid-stream %d, failed %d%n",
            all.sent, all.completed, all.rejected(), all.left, all.failed);
        out.printf("  router       admitted to a class %d, deferred %d, parked %d (session turns), queue deadlines"
            + " expired %d%n", all.enqueued, all.deferred, all.parked, result.stats().expired());
        out.println("  per class    sent  admitted  deferred  parked  completed  rejected  left   queue wait p50/p99"
            + "   TTFT p50/p99");
        for (ClassRow row : result.classes()) {
            out.printf("    %-20s %5d %9d %9d %7d %10d %9d %5d %10s %17s%n", row.name, row.sent, row.enqueued,
                row.deferred, row.parked, row.completed, row.rejected(), row.left, percentiles(row.queueWaitMs),
                percentiles(row.ttftMs));
        }
        out.printf("    %-20s %5d %9d %9d %7d %10d %9d %5d %10s %17s%n", "all", all.sent, all.enqueued, all.deferred,
            all.parked, all.completed, all.rejected(), all.left, percentiles(all.queueWaitMs),
            percentiles(all.ttftMs));
        out.println("               queue wait: the router's metrics, enqueue to dispatch. TTFT: the client's clock,"
            + " send to first SSE token");
        out.println("               or whole response. A request rejected before it joined a class is counted in the"
            + " class its");
        out.println("               header and size point to.");
        out.println("  rejections   by reason (status) and class:");
        for (Map.Entry<String, Map<String, Long>> reason : byReason(result).entrySet()) {
            long sum = reason.getValue().values().stream().mapToLong(Long::longValue).sum();
            out.printf("    %-32s %6d   %s%n", reason.getKey(), sum, reason.getValue().toString()
                .replace("{", "").replace("}", ""));
        }
        if (all.rejections.isEmpty()) {
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

    /** Reason (status) to class to count. */
    static Map<String, Map<String, Long>> byReason(DemoResult result) {
        Map<String, Map<String, Long>> reasons = new TreeMap<>();
        for (ClassRow row : result.classes()) {
            row.rejections.forEach((reason, count) -> reasons.computeIfAbsent(reason, r -> new TreeMap<>())
                .put(row.name, count));
        }
        return reasons;
    }

    static String percentiles(Histogram ms) {
        if (ms.getTotalCount() == 0) {
            return "-";
        }
        return ms.getValueAtPercentile(50) + "/" + ms.getValueAtPercentile(99) + " ms";
    }
}
