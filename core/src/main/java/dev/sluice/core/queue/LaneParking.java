package dev.sluice.core.queue;

import dev.sluice.core.api.WorkerWithDpRank;
import java.util.Arrays;
import org.agrona.collections.Object2ObjectHashMap;

/**
 * Rechecks parked lanes when the state a {@link DispatchGate} answer depends on changes. A change of one worker
 * unparks that worker's exact lanes (in every class) and every shared lane, because a shared head may now fit on
 * that worker; the other workers' exact lanes stay parked.
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
final class LaneParking {
    private final Object2ObjectHashMap<WorkerWithDpRank, WorkerLanes> byWorker = new Object2ObjectHashMap<>();
    private final ReadyClasses ready;
    private WorkerLanes[] workers = new WorkerLanes[8];
    private int workerCount;

    LaneParking(ReadyClasses ready) {
        this.ready = ready;
    }

    /** The parked-lane list of a worker, created on its first exact lane and kept. */
    WorkerLanes workerLanes(WorkerWithDpRank worker) {
        WorkerLanes lanes = byWorker.get(worker);
        if (lanes == null) {
            lanes = new WorkerLanes(worker);
            byWorker.put(worker, lanes);
            if (workerCount == workers.length) {
                workers = Arrays.copyOf(workers, workerCount * 2);
            }
            workers[workerCount++] = lanes;
        }
        return lanes;
    }

    void onWorkerChanged(WorkerWithDpRank worker) {
        // Called on every booking and release: without any exact lane yet (no pinned request seen) there is no list
        // to look up, so the common case skips the hash of the worker's id.
        if (workerCount > 0) {
            WorkerLanes lanes = byWorker.get(worker);
            if (lanes != null) {
                unparkAll(lanes);
            }
        }
        ready.unparkAllShared();
    }

    void onLoadChanged() {
        for (int i = 0; i < workerCount; i++) {
            unparkAll(workers[i]);
        }
        ready.unparkAllShared();
    }

    private static void unparkAll(WorkerLanes lanes) {
        Lane lane;
        while ((lane = lanes.pollParked()) != null) {
            lane.owner.unpark(lane);
        }
    }
}
