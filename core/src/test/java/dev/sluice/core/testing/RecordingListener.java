package dev.sluice.core.testing;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.AdmissionListener;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** Records every admission outcome, by lifecycle id, and fails loudly on a second outcome for one lifecycle. */
public final class RecordingListener implements AdmissionListener {
    /** One outcome: a worker, or an error. */
    public record Outcome(long lifecycleId, WorkerWithDpRank worker, AdmissionError error) {
        public boolean dispatched() {
            return worker != null;
        }
    }

    private final Map<Long, Outcome> byId = new ConcurrentHashMap<>();
    private final List<Outcome> inOrder = new CopyOnWriteArrayList<>();
    private final List<String> violations = new CopyOnWriteArrayList<>();

    @Override
    public void onDispatched(long lifecycleId, WorkerWithDpRank worker) {
        record(new Outcome(lifecycleId, worker, null));
    }

    @Override
    public void onRejected(long lifecycleId, AdmissionError error) {
        record(new Outcome(lifecycleId, null, error));
    }

    private void record(Outcome outcome) {
        if (byId.putIfAbsent(outcome.lifecycleId(), outcome) != null) {
            violations.add("second outcome for lifecycle " + outcome.lifecycleId() + ": " + outcome);
        }
        inOrder.add(outcome);
    }

    /** The outcome of a lifecycle, or {@code null} if none yet. */
    public Outcome outcome(long lifecycleId) {
        return byId.get(lifecycleId);
    }

    public boolean has(long lifecycleId) {
        return byId.containsKey(lifecycleId);
    }

    public List<Outcome> inOrder() {
        return new ArrayList<>(inOrder);
    }

    public int count() {
        return byId.size();
    }

    /** Outcomes delivered twice for one lifecycle (must stay empty). */
    public List<String> violations() {
        return List.copyOf(violations);
    }
}
