package dev.sluice.core.replay;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.audit.JournalRun;
import dev.sluice.core.audit.Lifecycle;
import dev.sluice.core.journal.JournalRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How the engines answered each recorded dispatch, relative to it: per lifecycle and dispatch, the worker and the
 * lifecycle reports that followed (responding, completion, a client leaving mid-stream, a retry) with their delay
 * after the dispatch and their place in the journal. For requests the recording never served, an estimate: the
 * medians of the completed requests of the same policy class (of all, for a request that never joined one). The
 * router's own shutdown is not an engine's answer and is left out. Immutable once built; single-threaded.
 */
final class ServiceTimes {
    private static final String SHUTTING_DOWN = "shutting_down";

    /** A lifecycle report {@code afterNs} after its dispatch, at {@code position} in the recording. */
    record Report(long afterNs, long position, JournalRecord record) {
    }

    /** One recorded dispatch: the worker and what followed it. */
    record Segment(WorkerWithDpRank worker, List<Report> reports) {
    }

    private final Map<Long, List<Segment>> segments;
    private final Map<Long, String> classes;
    private final Map<String, List<Report>> estimates;
    private final List<Report> overall;

    private ServiceTimes(Map<Long, List<Segment>> segments, Map<Long, String> classes,
                         Map<String, List<Report>> estimates, List<Report> overall) {
        this.segments = segments;
        this.classes = classes;
        this.estimates = estimates;
        this.overall = overall;
    }

    static ServiceTimes of(JournalRun run) {
        Map<Long, List<Segment>> segments = new HashMap<>();
        Map<Long, Long> dispatchedAt = new HashMap<>();
        List<JournalRecord> records = run.records();
        for (int i = 0; i < records.size(); i++) {
            JournalRecord record = records.get(i);
            long id = record.lifecycleId();
            if (record instanceof JournalRecord.Dispatched d) {
                dispatchedAt.put(id, d.timeNs());
                segments.computeIfAbsent(id, k -> new ArrayList<>()).add(new Segment(d.worker(), new ArrayList<>()));
                continue;
            }
            boolean report = record instanceof JournalRecord.Responding || record instanceof JournalRecord.Completed
                || record instanceof JournalRecord.Retried
                || record instanceof JournalRecord.Aborted a && !SHUTTING_DOWN.equals(a.causeMessage());
            Long at = dispatchedAt.get(id);
            if (report && at != null) {
                segments.get(id).getLast().reports().add(new Report(record.timeNs() - at, i, record));
            }
        }
        Map<Long, String> classes = new HashMap<>();
        Map<String, List<long[]>> samples = new HashMap<>();
        List<long[]> all = new ArrayList<>();
        for (Lifecycle lifecycle : run.lifecycles().values()) {
            String name = lifecycle.policyClass(run);
            classes.put(lifecycle.id(), name);
            long[] sample = sample(lifecycle, segments.get(lifecycle.id()));
            if (sample != null) {
                samples.computeIfAbsent(name, k -> new ArrayList<>()).add(sample);
                all.add(sample);
            }
        }
        Map<String, List<Report>> estimates = new HashMap<>();
        samples.forEach((name, list) -> estimates.put(name, median(list)));
        return new ServiceTimes(segments, classes, estimates, median(all));
    }

    /** The nth (1-based) recorded dispatch of a lifecycle, or {@code null} when the recording has none. */
    Segment segment(long lifecycleId, int nth) {
        List<Segment> list = segments.get(lifecycleId);
        return list == null || list.size() < nth ? null : list.get(nth - 1);
    }

    /**
     * Responding and completion after a dispatch, as requests of the lifecycle's class typically took; their
     * records stand for the reports (the replay addresses them to the lifecycle it estimates for).
     */
    List<Report> estimate(long lifecycleId) {
        List<Report> reports = estimates.get(classes.get(lifecycleId));
        return reports != null ? reports : overall;
    }

    /** Responding and completion delays of a lifecycle served once to completion: {ttft, total}; else null. */
    private static long[] sample(Lifecycle lifecycle, List<Segment> served) {
        if (served == null || served.size() != 1) {
            return null;
        }
        long responding = -1;
        long completed = -1;
        for (Report report : served.getFirst().reports()) {
            if (report.record() instanceof JournalRecord.Responding) {
                responding = report.afterNs();
            } else if (report.record() instanceof JournalRecord.Completed) {
                completed = report.afterNs();
            }
        }
        return responding >= 0 && completed >= responding ? new long[] {responding, completed} : null;
    }

    private static List<Report> median(List<long[]> samples) {
        if (samples.isEmpty()) {
            return List.of();
        }
        long[] ttft = samples.stream().mapToLong(s -> s[0]).sorted().toArray();
        long[] total = samples.stream().mapToLong(s -> s[1]).sorted().toArray();
        long responding = ttft[ttft.length / 2];
        long completed = Math.max(responding, total[total.length / 2]);
        return Arrays.asList(new Report(responding, Long.MAX_VALUE, new JournalRecord.Responding(0, -1)),
            new Report(completed, Long.MAX_VALUE, new JournalRecord.Completed(0, -1, -1)));
    }
}
