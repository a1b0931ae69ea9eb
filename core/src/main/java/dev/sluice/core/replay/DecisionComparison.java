package dev.sluice.core.replay;

import dev.sluice.core.audit.JournalRun;
import dev.sluice.core.audit.Lifecycle;
import dev.sluice.core.journal.JournalRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.agrona.collections.Long2LongHashMap;

/**
 * Compares recorded and replayed records lifecycle by lifecycle (ids mapped, since a fresh router numbers its
 * lifecycles anew), worker records in order, and the global order of dispatches. Every field is compared except
 * the classifier's own choices, which the replay copies from the recording anyway ({@link RecordFields}); a
 * difference names the first record that differs and each of its fields with both values. Stateless.
 */
public final class DecisionComparison {
    /**
     * @param records     records compared (all but the header).
     * @param decisions   of which router decisions: refused, classified, enqueued, rejected, dispatched.
     * @param dispatches  dispatches compared for global order.
     * @param differences every difference: which record and which of its fields, with both values.
     * @param undecided   arrivals not compared because the journal ends before their decision (a run cut short),
     *                    each as {@code request R (lifecycle L): journal ends before its decision}.
     */
    public record Result(int run, long records, long decisions, long dispatches, List<Difference> differences,
                         List<String> undecided, long simulatedNs, long wallNs) {
        public double speedUp() {
            return simulatedNs / (double) Math.max(1, wallNs);
        }
    }

    private DecisionComparison() {
    }

    static Result compare(JournalRun run, List<JournalRecord> replayed, Long2LongHashMap replayToRecorded,
                          Set<Long> undecided, long simulatedNs, long wallNs) {
        Map<Long, List<JournalRecord>> recorded = group(run.records(), null);
        List<String> notCompared = new ArrayList<>();
        for (long id : undecided) {
            recorded.remove(id);
            Lifecycle lifecycle = run.lifecycles().get(id);
            notCompared.add("request " + (lifecycle == null ? null : lifecycle.requestId()) + " (lifecycle " + id
                + "): journal ends before its decision");
        }
        Map<Long, List<JournalRecord>> replay = group(replayed, replayToRecorded);
        List<Difference> differences = new ArrayList<>();
        long decisions = 0;
        for (JournalRecord record : run.records()) {
            if (record instanceof JournalRecord.Refused || record instanceof JournalRecord.Classified
                || record instanceof JournalRecord.Enqueued || record instanceof JournalRecord.Rejected
                || record instanceof JournalRecord.Dispatched) {
                decisions++;
            }
        }
        for (Map.Entry<Long, List<JournalRecord>> entry : recorded.entrySet()) {
            Difference difference = compare(run, entry.getKey(), entry.getValue(),
                replay.getOrDefault(entry.getKey(), List.of()));
            if (difference != null) {
                differences.add(difference);
            }
        }
        for (Map.Entry<Long, List<JournalRecord>> entry : replay.entrySet()) {
            if (!recorded.containsKey(entry.getKey())) {
                differences.add(compare(run, entry.getKey(), List.of(), entry.getValue()));
            }
        }
        List<Long> recordedOrder = dispatchOrder(run.records(), null);
        List<Long> replayOrder = dispatchOrder(replayed, replayToRecorded);
        if (!recordedOrder.equals(replayOrder)) {
            int i = 0;
            while (i < Math.min(recordedOrder.size(), replayOrder.size()) && recordedOrder.get(i).equals(
                replayOrder.get(i))) {
                i++;
            }
            differences.add(new Difference("dispatch order differs from dispatch #" + (i + 1),
                Difference.DISPATCH_ORDER, null, i + 1, "Dispatched", 0, List.of(),
                recordedOrder.size() + " dispatches, lifecycle " + at(recordedOrder, i),
                replayOrder.size() + " dispatches, lifecycle " + at(replayOrder, i)));
        }
        return new Result(run.index(), run.records().size(), decisions, recordedOrder.size(), differences,
            List.copyOf(notCompared), simulatedNs, wallNs);
    }

    private static String at(List<Long> order, int i) {
        return i < order.size() ? order.get(i).toString() : "(none)";
    }

    /** The first record where the two sides differ, or {@code null} when they agree. */
    private static Difference compare(JournalRun run, long id, List<JournalRecord> ours, List<JournalRecord> theirs) {
        int i = 0;
        while (i < Math.min(ours.size(), theirs.size())
            && RecordFields.of(ours.get(i)).equals(RecordFields.of(theirs.get(i)))) {
            i++;
        }
        if (i == ours.size() && i == theirs.size()) {
            return null;
        }
        Lifecycle lifecycle = id < 0 ? null : run.lifecycles().get(id);
        String requestId = lifecycle == null ? null : lifecycle.requestId();
        String who = id < 0 ? "worker records" : "request " + requestId + " (lifecycle " + id + ")";
        RecordFields a = i < ours.size() ? RecordFields.of(ours.get(i)) : null;
        RecordFields b = i < theirs.size() ? RecordFields.of(theirs.get(i)) : null;
        JournalRecord at = i < ours.size() ? ours.get(i) : theirs.get(i);
        List<Difference.Field> fields = new ArrayList<>();
        if (a != null && b != null && a.type().equals(b.type())) {
            a.fields().forEach((name, value) -> {
                String other = b.fields().get(name);
                if (!value.equals(other)) {
                    fields.add(new Difference.Field(name, value, other));
                }
            });
        }
        return new Difference(who, id, requestId, i + 1, (a != null ? a : b).type(), at.timeNs() - run.startNs(),
            List.copyOf(fields), a == null ? "(nothing)" : a.toString(), b == null ? "(nothing)" : b.toString());
    }

    /** Records by recorded lifecycle id (-1: worker records). */
    private static Map<Long, List<JournalRecord>> group(List<JournalRecord> records, Long2LongHashMap ids) {
        Map<Long, List<JournalRecord>> groups = new LinkedHashMap<>();
        for (JournalRecord record : records) {
            if (record instanceof JournalRecord.Closed) {
                // The writer's clean close, not the router's: a replay has nothing to compare it with.
                continue;
            }
            long id = record.lifecycleId();
            if (ids != null && id >= 0) {
                id = ids.get(id);
            }
            groups.computeIfAbsent(id, k -> new ArrayList<>()).add(record);
        }
        return groups;
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
