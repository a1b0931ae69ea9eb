package dev.sluice.transport.demo;

import dev.sluice.core.api.Classification;
import dev.sluice.core.audit.JournalRun;
import dev.sluice.core.audit.Lifecycle;
import dev.sluice.core.journal.JournalRecord;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * A run's figures per policy class, as {@code journal stats} defines them ({@link Lifecycle}): a lifecycle counts in
 * the class it was enqueued into, {@code (none)} if it never was; its outcome is its first terminal record; queue
 * wait is enqueue to dispatch, TTFT ingress to the first response item. The same code tallies the recording and a
 * what-if's records, so the two columns mean the same. Cold path; not thread-safe.
 *
 * @param classes    by class name, sorted.
 * @param rejections by reason and status ({@code deadline_exceeded (429)}), sorted.
 */
public record RunFigures(Map<String, ClassFigures> classes, Map<Reason, Long> rejections) {
    static final String NO_CLASS = "(none)";

    /** A rejection's reason and the status the client got; reads {@code deadline_exceeded (429)}. */
    public record Reason(String reason, int status) implements Comparable<Reason> {
        @Override
        public int compareTo(Reason o) {
            int byName = reason.compareTo(o.reason);
            return byName != 0 ? byName : Integer.compare(status, o.status);
        }

        @Override
        public String toString() {
            return reason + " (" + status + ")";
        }
    }

    /** One class's counts; histograms in microseconds. */
    public record ClassFigures(long[] counts, Histogram queueWaitUs, Histogram ttftUs) {
        public static final int ARRIVED = 0;
        public static final int ADMITTED = 1;
        public static final int PARKED = 2;
        public static final int REJECTED = 3;
        public static final int COMPLETED = 4;
        public static final int ABORTED = 5;
        static final String[] NAMES = {"arrived", "admitted", "parked", "rejected", "completed", "aborted"};

        public long count(int which) {
            return counts[which];
        }

        /** A percentile in whole milliseconds, or {@code null} when nothing was measured. */
        public Long ms(Histogram h, double percentile) {
            return h.getTotalCount() == 0 ? null : h.getValueAtPercentile(percentile) / 1000;
        }
    }

    static RunFigures of(JournalRun run) {
        Map<String, ClassFigures> classes = new TreeMap<>();
        Map<Reason, Long> rejections = new TreeMap<>();
        for (Lifecycle lifecycle : run.lifecycles().values()) {
            String name = lifecycle.policyClass() == null ? NO_CLASS : lifecycle.policyClass();
            ClassFigures figures = classes.computeIfAbsent(name, n -> new ClassFigures(new long[6],
                new Histogram(3_600_000_000L, 3), new Histogram(3_600_000_000L, 3)));
            long[] counts = figures.counts();
            counts[ClassFigures.ARRIVED]++;
            boolean parked = false;
            boolean admitted = false;
            for (JournalRecord record : lifecycle.records()) {
                parked |= record instanceof JournalRecord.Classified c && (c.decision() == Classification.Kind.PARK
                    || c.decision() == Classification.Kind.DEFER);
                admitted |= record instanceof JournalRecord.Enqueued;
            }
            counts[ClassFigures.PARKED] += parked ? 1 : 0;
            counts[ClassFigures.ADMITTED] += admitted ? 1 : 0;
            switch (lifecycle.outcome()) {
                case "completed" -> counts[ClassFigures.COMPLETED]++;
                case "rejected", "refused" -> counts[ClassFigures.REJECTED]++;
                case "aborted" -> counts[ClassFigures.ABORTED]++;
                default -> {
                }
            }
            record(figures.queueWaitUs(), lifecycle.queueWaitNs());
            record(figures.ttftUs(), lifecycle.ttftNs());
            for (JournalRecord record : lifecycle.terminals()) {
                JournalRecord.Error error = record instanceof JournalRecord.Rejected r ? r.error()
                    : record instanceof JournalRecord.Refused r ? r.error() : null;
                if (error != null) {
                    rejections.merge(new Reason(error.reason(), error.httpStatus()), 1L, Long::sum);
                }
            }
        }
        return new RunFigures(classes, rejections);
    }

    private static void record(Histogram h, long nanos) {
        if (nanos >= 0) {
            h.recordValue(Math.min(nanos / 1000, h.getHighestTrackableValue()));
        }
    }
}
