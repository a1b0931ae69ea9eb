package dev.sluice.core.queue;

/**
 * The exact lanes of one class that are non-empty and not parked, as an {@link IntrusiveHeap} of their heads
 * ({@link EntryOrder}); the lane keeps its head's slot in {@link Lane#indexPos}, and a head leads back to its lane
 * through {@link QueueEntry#heap}. The best exact-lane head is the root, so dispatch never scans lanes, and a parked
 * lane costs nothing until it is rechecked. The owner must {@link #update} an indexed lane whose head changed before
 * the index is read again.
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
final class LaneIndex {
    private final IntrusiveHeap heads = new IntrusiveHeap(IntrusiveHeap.LANE_HEADS, 2);

    int size() {
        return heads.size();
    }

    /** The lane with the best head, or {@code null}. */
    Lane peek() {
        QueueEntry head = heads.peek();
        return head == null ? null : head.heap;
    }

    boolean contains(Lane lane) {
        return lane.indexPos >= 0;
    }

    /** Indexes a non-empty lane by its head. */
    void add(Lane lane) {
        heads.insert(lane.peek());
    }

    void remove(Lane lane) {
        int slot = lane.indexPos;
        lane.indexPos = -1;
        heads.removeAt(slot);
    }

    /** Restores the order after the head of an indexed lane changed (it stays non-empty). */
    void update(Lane lane) {
        heads.replaceAt(lane.indexPos, lane.peek());
    }
}
