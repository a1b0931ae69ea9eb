package dev.sluice.core.queue;

import dev.sluice.core.api.WorkerWithDpRank;

/**
 * One lane of a policy class: the shared lane ({@code worker == null}) or the exact lane of one hard-pinned worker.
 * An {@link IntrusiveHeap} of {@link QueueEntry} in {@link EntryOrder}; the entry keeps its slot in
 * {@link QueueEntry#heapIndex}, so removing any entry is O(log n) and nothing is boxed. The array only grows. The
 * lane is the heap rather than holding one because DRR peeks at every lane it visits: the head is one load away.
 *
 * <p>An exact lane is <em>parked</em> after its head was found undispatchable: the gate answer depends only on the
 * class and the worker, so asking again before the worker's state changes would repeat the same answer. (The shared
 * lane's parked state lives in {@link ReadyClasses}, so one load change can unpark all of them at once.)
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
final class Lane extends IntrusiveHeap {
    final ClassQueue owner;
    final WorkerWithDpRank worker;
    /** The parked-lane list of {@link #worker}; {@code null} for the shared lane. */
    final WorkerLanes workerLanes;
    /** The tenant slot of a tenant lane (a shared lane of one tenant in a tenant-fair class), else -1. */
    final int tenant;
    /** Exact lanes only; while set the lane is out of the index and linked into {@link #workerLanes}. */
    boolean parked;
    /** Position of the lane's head in the class's {@link LaneIndex}, or -1. */
    int indexPos = -1;
    Lane prevParked;
    Lane nextParked;

    Lane(ClassQueue owner, WorkerWithDpRank worker, WorkerLanes workerLanes) {
        this(owner, worker, workerLanes, -1);
    }

    Lane(ClassQueue owner, WorkerWithDpRank worker, WorkerLanes workerLanes, int tenant) {
        super(LANE_ENTRIES, 4);
        this.owner = owner;
        this.worker = worker;
        this.workerLanes = workerLanes;
        this.tenant = tenant;
    }

    /** Adds an entry; true when it became the head. */
    boolean add(QueueEntry entry) {
        entry.heap = this;
        return insert(entry);
    }

    /** Removes an entry held by this lane; true when it was the head. */
    boolean remove(QueueEntry entry) {
        int slot = entry.heapIndex;
        entry.heap = null;
        entry.heapIndex = -1;
        return removeAt(slot);
    }
}
