package dev.sluice.core.replay;

import dev.sluice.core.audit.JournalRun;
import dev.sluice.core.audit.Lifecycle;
import dev.sluice.core.journal.JournalRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.agrona.collections.Long2LongHashMap;

/**
 * Compares recorded and replayed records lifecycle by lifecycle (ids mapped, since a fresh router numbers its
 * lifecycles anew), worker records in order, and the global order of dispatches. Every field is compared except
 * the classifier's own choices, which the replay copies from the recording anyway: a deferral and a park both
 * read "waiting", and the overrides of a classification record are not compared (those of the enqueue are), nor
 * an abort's cause (an input). Stateless.
 */
public final class DecisionComparison {
    private static final Pattern LIFECYCLE = Pattern.compile("lifecycleId=\\d+");

    /**
     * @param records     records compared (all but the header).
     * @param decisions   of which router decisions: refused, classified, enqueued, rejected, dispatched.
     * @param dispatches  dispatches compared for global order.
     * @param differences every difference, readable.
     */
    public record Result(int run, long records, long decisions, long dispatches, List<String> differences,
                         long simulatedNs, long wallNs) {
        public double speedUp() {
            return simulatedNs / (double) Math.max(1, wallNs);
        }
    }

    private DecisionComparison() {
    }

    static Result compare(JournalRun run, List<JournalRecord> replayed, Long2LongHashMap replayToRecorded,
                          long simulatedNs, long wallNs) {
        Map<Long, List<String>> recorded = group(run.records(), null);
        Map<Long, List<String>> replay = group(replayed, replayToRecorded);
        List<String> differences = new ArrayList<>();
        long decisions = 0;
        for (JournalRecord record : run.records()) {
            if (record instanceof JournalRecord.Refused || record instanceof JournalRecord.Classified
                || record instanceof JournalRecord.Enqueued || record instanceof JournalRecord.Rejected
                || record instanceof JournalRecord.Dispatched) {
                decisions++;
            }
        }
        for (Map.Entry<Long, List<String>> entry : recorded.entrySet()) {
            List<String> theirs = replay.getOrDefault(entry.getKey(), List.of());
            if (!entry.getValue().equals(theirs)) {
                differences.add(describe(run, entry.getKey(), entry.getValue(), theirs));
            }
        }
        replay.keySet().stream().filter(id -> !recorded.containsKey(id)).forEach(id ->
            differences.add("replay has records the recording does not: " + replay.get(id)));
        List<Long> recordedOrder = dispatchOrder(run.records(), null);
        List<Long> replayOrder = dispatchOrder(replayed, replayToRecorded);
        if (!recordedOrder.equals(replayOrder)) {
            int i = 0;
            while (i < Math.min(recordedOrder.size(), replayOrder.size()) && recordedOrder.get(i).equals(
                replayOrder.get(i))) {
                i++;
            }
            differences.add("dispatch order differs from dispatch #" + (i + 1) + " (recorded " + recordedOrder.size()
                + " dispatches, replayed " + replayOrder.size() + ")");
        }
        return new Result(run.index(), run.records().size(), decisions, recordedOrder.size(), differences,
            simulatedNs, wallNs);
    }

    private static String describe(JournalRun run, long id, List<String> ours, List<String> theirs) {
        Lifecycle lifecycle = run.lifecycles().get(id);
        String who = id == -1 ? "worker records" : "request " + lifecycle.requestId() + " (lifecycle " + id + ")";
        int i = 0;
        while (i < Math.min(ours.size(), theirs.size()) && ours.get(i).equals(theirs.get(i))) {
            i++;
        }
        return who + ": record #" + (i + 1) + " recorded " + (i < ours.size() ? ours.get(i) : "(nothing)")
            + ", replayed " + (i < theirs.size() ? theirs.get(i) : "(nothing)");
    }

    /** Normalized records by recorded lifecycle id (-1: worker records). */
    private static Map<Long, List<String>> group(List<JournalRecord> records, Long2LongHashMap ids) {
        Map<Long, List<String>> groups = new LinkedHashMap<>();
        for (JournalRecord record : records) {
            if (record instanceof JournalRecord.Closed) {
                // The writer's clean close, not the router's: a replay has nothing to compare it with.
                continue;
            }
            long id = record.lifecycleId();
            if (ids != null && id >= 0) {
                id = ids.get(id);
            }
            groups.computeIfAbsent(id, k -> new ArrayList<>()).add(normalize(record));
        }
        return groups;
    }

    private static String normalize(JournalRecord record) {
        return switch (record) {
            case JournalRecord.Classified c -> "Classified[t=" + c.timeNs() + ", " + switch (c.decision()) {
                case DEFER, PARK -> "WAITING";
                default -> c.decision().name();
            } + "]";
            case JournalRecord.Aborted a -> "Aborted[t=" + a.timeNs() + ", stage=" + a.stage() + "]";
            default -> LIFECYCLE.matcher(record.toString()).replaceFirst("lifecycleId=_");
        };
    }

    private static List<Long> dispatchOrder(List<JournalRecord> records, Long2LongHashMap ids) {
        List<Long> order = new ArrayList<>();
        for (JournalRecord record : records) {
            if (record instanceof JournalRecord.Dispatched d) {
                order.add(ids == null ? d.lifecycleId() : ids.get(d.lifecycleId()));
            }
        }
        return order;
    }
}
