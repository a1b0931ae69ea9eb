package dev.sluice.core.queue;

import dev.sluice.core.api.WorkerWithDpRank;
import java.util.Arrays;

/**
 * One lane of a policy class: the shared lane ({@code worker == null}) or the exact lane of one hard-pinned worker.
 * An intrusive binary min-heap over {@link QueueEntry} in {@link EntryOrder}; the entry keeps its slot in
 * {@link QueueEntry#heapIndex}, so removing any entry is O(log n) and nothing is boxed. The array only grows.
 *
 * <p>An exact lane is <em>parked</em> after its head was found undispatchable: the gate answer depends only on the
 * class and the worker, so asking again before the worker's state changes would repeat the same answer. (The shared
 * lane's parked state lives in {@link ReadyClasses}, so one load change can unpark all of them at once.)
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
final class Lane {
    private static final int INITIAL_CAPACITY = 4;

    final ClassQueue owner;
    final WorkerWithDpRank worker;
    /** The parked-lane list of {@link #worker}; {@code null} for the shared lane. */
    final WorkerLanes workerLanes;
    /** Exact lanes only; while set the lane is out of the index and linked into {@link #workerLanes}. */
    boolean parked;
    /** Position in the class's {@link LaneIndex}, or -1. */
    int indexPos = -1;
    Lane prevParked;
    Lane nextParked;

    private QueueEntry[] entries = new QueueEntry[INITIAL_CAPACITY];
    private int size;

    Lane(ClassQueue owner, WorkerWithDpRank worker, WorkerLanes workerLanes) {
        this.owner = owner;
        this.worker = worker;
        this.workerLanes = workerLanes;
    }

    int size() {
        return size;
    }

    /** The best entry, or {@code null} when empty. */
    QueueEntry peek() {
        return size == 0 ? null : entries[0];
    }

    /** Adds an entry; true when it became the head. */
    boolean add(QueueEntry entry) {
        if (size == entries.length) {
            entries = Arrays.copyOf(entries, size * 2);
        }
        entry.heap = this;
        int slot = siftUp(size++, entry);
        return slot == 0;
    }

    /** Removes an entry held by this lane; true when it was the head. */
    boolean remove(QueueEntry entry) {
        int slot = entry.heapIndex;
        QueueEntry last = entries[--size];
        entries[size] = null;
        if (slot != size) {
            if (slot > 0 && EntryOrder.before(last, entries[(slot - 1) >>> 1])) {
                siftUp(slot, last);
            } else {
                siftDown(slot, last);
            }
        }
        entry.heap = null;
        entry.heapIndex = -1;
        return slot == 0;
    }

    private int siftUp(int slot, QueueEntry entry) {
        while (slot > 0) {
            int parent = (slot - 1) >>> 1;
            QueueEntry above = entries[parent];
            if (!EntryOrder.before(entry, above)) {
                break;
            }
            entries[slot] = above;
            above.heapIndex = slot;
            slot = parent;
        }
        entries[slot] = entry;
        entry.heapIndex = slot;
        return slot;
    }

    private void siftDown(int slot, QueueEntry entry) {
        int half = size >>> 1;
        while (slot < half) {
            int child = 2 * slot + 1;
            QueueEntry best = entries[child];
            int right = child + 1;
            if (right < size && EntryOrder.before(entries[right], best)) {
                child = right;
                best = entries[right];
            }
            if (!EntryOrder.before(best, entry)) {
                break;
            }
            entries[slot] = best;
            best.heapIndex = slot;
            slot = child;
        }
        entries[slot] = entry;
        entry.heapIndex = slot;
    }
}
