package dev.sluice.core.queue;

import java.util.Arrays;

/**
 * The exact lanes of one class that are non-empty and not parked, as an intrusive binary heap ordered by their heads
 * ({@link EntryOrder}); the lane keeps its slot in {@link Lane#indexPos}. The best exact-lane head is the root, so
 * dispatch never scans lanes, and a parked lane costs nothing until it is rechecked.
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
final class LaneIndex {
    private Lane[] lanes = new Lane[2];
    private int size;

    int size() {
        return size;
    }

    /** The lane with the best head, or {@code null}. */
    Lane peek() {
        return size == 0 ? null : lanes[0];
    }

    boolean contains(Lane lane) {
        return lane.indexPos >= 0;
    }

    void add(Lane lane) {
        if (size == lanes.length) {
            lanes = Arrays.copyOf(lanes, size * 2);
        }
        siftUp(size++, lane);
    }

    void remove(Lane lane) {
        int slot = lane.indexPos;
        Lane last = lanes[--size];
        lanes[size] = null;
        lane.indexPos = -1;
        if (slot != size) {
            place(slot, last);
        }
    }

    /** Restores the order after the head of an indexed lane changed (it stays non-empty). */
    void update(Lane lane) {
        place(lane.indexPos, lane);
    }

    private void place(int slot, Lane lane) {
        if (slot > 0 && headBefore(lane, lanes[(slot - 1) >>> 1])) {
            siftUp(slot, lane);
        } else {
            siftDown(slot, lane);
        }
    }

    private static boolean headBefore(Lane a, Lane b) {
        return EntryOrder.before(a.peek(), b.peek());
    }

    private void siftUp(int slot, Lane lane) {
        while (slot > 0) {
            int parent = (slot - 1) >>> 1;
            Lane above = lanes[parent];
            if (!headBefore(lane, above)) {
                break;
            }
            lanes[slot] = above;
            above.indexPos = slot;
            slot = parent;
        }
        lanes[slot] = lane;
        lane.indexPos = slot;
    }

    private void siftDown(int slot, Lane lane) {
        int half = size >>> 1;
        while (slot < half) {
            int child = 2 * slot + 1;
            Lane best = lanes[child];
            int right = child + 1;
            if (right < size && headBefore(lanes[right], best)) {
                child = right;
                best = lanes[right];
            }
            if (!headBefore(best, lane)) {
                break;
            }
            lanes[slot] = best;
            best.indexPos = slot;
            slot = child;
        }
        lanes[slot] = lane;
        lane.indexPos = slot;
    }
}
