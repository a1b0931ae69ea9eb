package dev.sluice.core.audit;

import dev.sluice.core.journal.JournalRecord;
import java.io.PrintWriter;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * Per policy class and outcome: counts, queue-wait and TTFT percentiles (HdrHistogram, microsecond resolution),
 * and rejection reasons with their status. Lifecycles that never reached a class count under {@code (none)}.
 * Cold path; not thread-safe.
 */
public final class JournalStats {
    private static final String NO_CLASS = "(none)";

    /** One class's figures. */
    static final class ClassStats {
        final Map<String, Long> outcomes = new TreeMap<>();
        final Histogram queueWaitUs = new Histogram(3_600_000_000L, 3);
        final Histogram ttftUs = new Histogram(3_600_000_000L, 3);
    }

    private final Map<String, ClassStats> byClass = new TreeMap<>();
    private final Map<String, Long> rejections = new TreeMap<>();
    private long lifecycles;

    /** Empty: {@link #add} runs to it. */
    public JournalStats() {
    }

    /** Adds every lifecycle of a run. */
    public JournalStats add(JournalRun run) {
        for (Lifecycle lifecycle : run.lifecycles().values()) {
            add(lifecycle);
        }
        return this;
    }

    void add(Lifecycle lifecycle) {
        lifecycles++;
        String name = lifecycle.policyClass();
        ClassStats stats = byClass.computeIfAbsent(name == null ? NO_CLASS : name, n -> new ClassStats());
        stats.outcomes.merge(lifecycle.outcome(), 1L, Long::sum);
        long wait = lifecycle.queueWaitNs();
        if (wait >= 0) {
            stats.queueWaitUs.recordValue(Math.min(wait / 1000, stats.queueWaitUs.getHighestTrackableValue()));
        }
        long ttft = lifecycle.ttftNs();
        if (ttft >= 0) {
            stats.ttftUs.recordValue(Math.min(ttft / 1000, stats.ttftUs.getHighestTrackableValue()));
        }
        for (JournalRecord record : lifecycle.terminals()) {
            JournalRecord.Error error = record instanceof JournalRecord.Rejected r ? r.error()
                : record instanceof JournalRecord.Refused r ? r.error() : null;
            if (error != null) {
                rejections.merge(error.reason() + " (" + error.httpStatus() + ")", 1L, Long::sum);
            }
        }
    }

    public void print(PrintWriter out) {
        out.printf("%d lifecycles%n%n", lifecycles);
        out.printf("%-20s %-10s %8s%n", "class", "outcome", "count");
        byClass.forEach((name, stats) -> stats.outcomes.forEach((outcome, count) ->
            out.printf("%-20s %-10s %8d%n", name, outcome, count)));
        out.println();
        out.printf("%-20s %9s %10s %10s %10s %9s %10s %10s %10s%n", "class", "waited", "wait p50", "wait p99",
            "wait max", "ttft n", "ttft p50", "ttft p99", "ttft max");
        byClass.forEach((name, s) -> out.printf("%-20s %9d %10s %10s %10s %9d %10s %10s %10s%n", name,
            s.queueWaitUs.getTotalCount(), ms(s.queueWaitUs, 50), ms(s.queueWaitUs, 99), max(s.queueWaitUs),
            s.ttftUs.getTotalCount(), ms(s.ttftUs, 50), ms(s.ttftUs, 99), max(s.ttftUs)));
        out.println();
        out.println("rejection reasons (status):");
        if (rejections.isEmpty()) {
            out.println("  none");
        }
        rejections.forEach((reason, count) -> out.printf("  %-40s %8d%n", reason, count));
        out.flush();
    }

    private static String ms(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? "-" : String.format("%.1f ms", h.getValueAtPercentile(percentile) / 1000.0);
    }

    private static String max(Histogram h) {
        return h.getTotalCount() == 0 ? "-" : String.format("%.1f ms", h.getMaxValue() / 1000.0);
    }
}
