package dev.sluice.core.queue;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.PolicyClassSpec;
import org.agrona.collections.Object2ObjectHashMap;

/**
 * One policy class: its shared lane, one exact lane per hard-pinned worker, the index of unparked exact-lane heads,
 * the pending-usage counters the limits read, and its DRR deficit. An empty class holds no credit: the deficit
 * resets whenever the class becomes empty, whatever emptied it.
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
final class ClassQueue {
    final int index;
    final PolicyClassSpec spec;
    final Lane shared;
    /** The shared lane split by tenant when the class is tenant-fair, else {@code null} (then {@link #shared}). */
    final TenantLanes tenants;
    private final LaneIndex exactIndex = new LaneIndex();
    private final ReadyClasses ready;
    private final LaneParking parking;
    private Object2ObjectHashMap<WorkerWithDpRank, Lane> exactLanes;

    int size;
    long pendingRaw;
    long pendingCached;
    long deficit;
    private QueueEntry candidate;
    private long candidateEpoch = -1;

    ClassQueue(int index, PolicyClassSpec spec, ReadyClasses ready, LaneParking parking) {
        this.index = index;
        this.spec = spec;
        this.ready = ready;
        this.parking = parking;
        this.shared = new Lane(this, null, null);
        this.tenants = spec.tenantFairness().enabled() ? new TenantLanes(this, spec.tenantFairness()) : null;
    }

    void add(QueueEntry entry) {
        WorkerWithDpRank worker = entry.lane();
        if (tenants != null) {
            tenants.add(entry, worker == null);
        }
        if (worker == null) {
            if (tenants == null) {
                shared.add(entry);
            }
            ready.sharedQueued(index, true);
        } else {
            Lane lane = exactLane(worker);
            boolean newHead = lane.add(entry);
            if (!lane.parked) {
                if (lane.indexPos < 0) {
                    exactIndex.add(lane);
                    ready.exactReady(index, true);
                } else if (newHead) {
                    exactIndex.update(lane);
                }
            }
        }
        size++;
        pendingRaw += entry.rawIslTokens();
        pendingCached += entry.cachedTokens();
    }

    void remove(QueueEntry entry) {
        Lane lane = entry.heap;
        if (lane.tenant >= 0) {
            tenants.removeFromLane(lane, entry);
            ready.sharedQueued(index, tenants.queued > 0);
        } else if (lane == shared) {
            lane.remove(entry);
            ready.sharedQueued(index, shared.size() > 0);
        } else if (lane.remove(entry) && lane.indexPos >= 0) {
            if (lane.size() == 0) {
                exactIndex.remove(lane);
                ready.exactReady(index, exactIndex.size() > 0);
            } else {
                exactIndex.update(lane);
            }
        }
        size--;
        pendingRaw -= entry.rawIslTokens();
        pendingCached -= entry.cachedTokens();
        if (size == 0) {
            deficit = 0;
        }
    }

    /**
     * The best dispatchable lane head: the shared head if its lane is free, or a better head of a free exact lane.
     * Lanes found blocked are parked and not asked again until rechecked. Memoized per {@code epoch} (one poll), so
     * a class visited twice in a poll asks the gate once.
     */
    QueueEntry candidate(DispatchGate gate, long epoch) {
        if (candidateEpoch == epoch) {
            return candidate;
        }
        QueueEntry best = null;
        if (sharedSize() > 0 && !ready.isSharedParked(index)) {
            if (gate.sharedDispatchable(spec)) {
                best = sharedHead();
            } else {
                ready.parkShared(index);
            }
        }
        Lane lane;
        while ((lane = exactIndex.peek()) != null) {
            QueueEntry head = lane.peek();
            if (best != null && EntryOrder.before(best, head)) {
                break;
            }
            if (gate.workerDispatchable(spec, lane.worker)) {
                best = head;
                break;
            }
            exactIndex.remove(lane);
            lane.parked = true;
            lane.workerLanes.link(lane);
        }
        ready.exactReady(index, exactIndex.size() > 0);
        candidate = best;
        candidateEpoch = epoch;
        return best;
    }

    /** The shared lane's head: in a tenant-fair class, the head of the tenant charged least; or {@code null}. */
    QueueEntry sharedHead() {
        return tenants == null ? shared.peek() : tenants.peek();
    }

    /** Entries in the shared lane (all tenants' lanes of a tenant-fair class). */
    int sharedSize() {
        return tenants == null ? shared.size() : tenants.queued;
    }

    /** Removes every entry, shared lane first, into {@code out} (a policy reload); the caller updates deadlines. */
    void drainInto(java.util.List<QueueEntry> out) {
        QueueEntry head;
        while ((head = sharedHead()) != null) {
            remove(head);
            out.add(head);
        }
        if (exactLanes != null) {
            for (Lane lane : exactLanes.values()) {
                while ((head = lane.peek()) != null) {
                    remove(head);
                    out.add(head);
                }
            }
        }
    }

    /** Makes a parked exact lane eligible again (its worker changed). */
    void unpark(Lane lane) {
        lane.parked = false;
        if (lane.size() > 0) {
            exactIndex.add(lane);
            ready.exactReady(index, true);
        }
    }

    /** Unparks the lane a never-queue entry goes to: the gate has just called it free. */
    void unparkLaneOf(WorkerWithDpRank worker) {
        if (worker == null) {
            ready.unparkShared(index);
            return;
        }
        Lane lane = exactLane(worker);
        if (lane.parked) {
            lane.workerLanes.unlink(lane);
            unpark(lane);
        }
    }

    /** The exact lane of a worker, created on first use and kept, so a warm queue allocates nothing. */
    private Lane exactLane(WorkerWithDpRank worker) {
        if (exactLanes == null) {
            exactLanes = new Object2ObjectHashMap<>();
        }
        Lane lane = exactLanes.get(worker);
        if (lane == null) {
            lane = new Lane(this, worker, parking.workerLanes(worker));
            exactLanes.put(worker, lane);
        }
        return lane;
    }
}
