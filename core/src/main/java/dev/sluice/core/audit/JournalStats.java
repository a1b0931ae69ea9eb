package dev.sluice.core.audit;

import java.io.PrintWriter;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * {@code journal stats}: the {@link RequestFigures} of every lifecycle in a journal, per policy class (sorted by
 * name, {@value RequestFigures#NO_CLASS} last) and in total, with the figures' definitions. Cold path; not
 * thread-safe.
 */
public final class JournalStats {
    private final RequestFigures figures = new RequestFigures();
    private long lifecycles;

    /** Empty: {@link #add} runs to it. */
    public JournalStats() {
    }

    /** Adds every lifecycle of a run. */
    public JournalStats add(JournalRun run) {
        for (Lifecycle lifecycle : run.lifecycles().values()) {
            lifecycles++;
            figures.add(lifecycle.facts(run));
        }
        return this;
    }

    /** How many lifecycles were added. */
    public long lifecycles() {
        return lifecycles;
    }

    /** The figures per class, sorted by name with {@value RequestFigures#NO_CLASS} last. */
    public Map<String, RequestFigures.ClassFigures> byClass() {
        Map<String, RequestFigures.ClassFigures> sorted = new TreeMap<>((a, b) -> a.equals(b) ? 0
            : a.equals(RequestFigures.NO_CLASS) ? 1 : b.equals(RequestFigures.NO_CLASS) ? -1 : a.compareTo(b));
        sorted.putAll(figures.byClass());
        return sorted;
    }

    /** Every class added up. */
    public RequestFigures.ClassFigures total() {
        return figures.total();
    }

    /** {@code reason (status)} to class to count, both sorted as {@link #byClass}. */
    public Map<String, Map<String, Long>> rejectionsByReason() {
        Map<String, Map<String, Long>> reasons = new TreeMap<>();
        byClass().forEach((name, f) -> f.rejections().forEach((reason, count) ->
            reasons.computeIfAbsent(reason, r -> new java.util.LinkedHashMap<>()).put(name, count)));
        return reasons;
    }

    public void print(PrintWriter out) {
        Map<String, RequestFigures.ClassFigures> byClass = byClass();
        RequestFigures.ClassFigures total = total();
        out.printf("%d lifecycles%n%n", lifecycles);
        out.printf("%-20s %8s %8s %8s %8s %7s %9s %8s %8s %6s%n", "class", "arrived", "queued", "admitted",
            "deferred", "parked", "completed", "rejected", "aborted", "open");
        byClass.forEach((name, f) -> counts(out, name, f));
        counts(out, "all", total);
        out.println();
        out.printf("%-20s %9s %10s %10s %10s %9s %10s %10s %10s%n", "class", "waited", "wait p50", "wait p99",
            "wait max", "ttft n", "ttft p50", "ttft p99", "ttft max");
        byClass.forEach((name, f) -> latencies(out, name, f));
        latencies(out, "all", total);
        out.println();
        out.println("rejection reasons (status), by class:");
        Map<String, Map<String, Long>> reasons = rejectionsByReason();
        if (reasons.isEmpty()) {
            out.println("  none");
        }
        reasons.forEach((reason, classes) -> out.printf("  %-32s %8d   %s%n", reason,
            classes.values().stream().mapToLong(Long::longValue).sum(), classes.toString().replace("{", "")
                .replace("}", "")));
        out.println();
        RequestFigures.DEFINITIONS.forEach(line -> out.println("  " + line));
        out.flush();
    }

    private static void counts(PrintWriter out, String name, RequestFigures.ClassFigures f) {
        out.printf("%-20s %8d %8d %8d %8d %7d %9d %8d %8d %6d%n", name, f.arrived(), f.queued(), f.admitted(),
            f.deferred(), f.parked(), f.count(RequestFigures.Outcome.COMPLETED),
            f.count(RequestFigures.Outcome.REJECTED), f.count(RequestFigures.Outcome.ABORTED),
            f.count(RequestFigures.Outcome.OPEN));
    }

    private static void latencies(PrintWriter out, String name, RequestFigures.ClassFigures f) {
        out.printf("%-20s %9d %10s %10s %10s %9d %10s %10s %10s%n", name, f.queueWaitUs().getTotalCount(),
            ms(f.queueWaitUs(), 50), ms(f.queueWaitUs(), 99), ms(f.queueWaitUs(), 100), f.ttftUs().getTotalCount(),
            ms(f.ttftUs(), 50), ms(f.ttftUs(), 99), ms(f.ttftUs(), 100));
    }

    private static String ms(Histogram us, double percentile) {
        String value = RequestFigures.ms(us, percentile);
        return value.equals("-") ? value : value + " ms";
    }
}
