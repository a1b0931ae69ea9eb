package dev.sluice.core.testing;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.AdmissionListener;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A host for preemption tests: records dispatches, rejections and preemptions, and gives a request up for preemption
 * once, unless it is marked as streaming (a host never gives up a request that has streamed a byte).
 */
public final class PreemptionHost implements AdmissionListener {
    public final Map<Long, WorkerWithDpRank> dispatched = new ConcurrentHashMap<>();
    public final Map<Long, AdmissionError> rejected = new ConcurrentHashMap<>();
    public final Map<Long, AdmissionError> preempted = new ConcurrentHashMap<>();
    public final Set<Long> streaming = ConcurrentHashMap.newKeySet();

    @Override
    public void onDispatched(long lifecycleId, WorkerWithDpRank worker) {
        dispatched.put(lifecycleId, worker);
    }

    @Override
    public void onRejected(long lifecycleId, AdmissionError error) {
        rejected.put(lifecycleId, error);
    }

    @Override
    public boolean onPreempted(long lifecycleId, AdmissionError error) {
        return !streaming.contains(lifecycleId) && preempted.putIfAbsent(lifecycleId, error) == null;
    }
}
