package dev.sluice.core.queue;

import java.util.Arrays;

/**
 * The queue's intrusive binary min-heap of {@link QueueEntry}, in one of three roles fixed at construction: a lane's
 * entries ({@link EntryOrder}, slot in {@link QueueEntry#heapIndex}), the heads of a class's unparked exact lanes
 * ({@link EntryOrder}, slot in the head's lane, {@link Lane#indexPos}) and the deadlines
 * ({@link DeadlineIndex#earlier}, slot in {@link QueueEntry#dueIndex}). The element keeps its slot, so removing or
 * replacing any element is O(log n) with no search, the root is read in O(1), and nothing is boxed or allocated per
 * operation. The array only grows. Both orders are strict total orders (they end in the unique enqueue sequence), so
 * the layout is a function of the operations alone. {@link Lane} extends it; {@link LaneIndex} and
 * {@link DeadlineIndex} each hold one.
 *
 * <p>Why one element type and a role field rather than a generic heap with an abstract order per use or a
 * comparator (measured on {@code PolicyQueueBench} against the three hand-written heaps this replaces): the sift
 * loops are one piece of bytecode, so C2 profiles them once for every heap and, as they are hot from several
 * callers, compiles them on their own; the callers then call that compiled loop instead of inlining it
 * ({@code InlineSmallCode}), so an order reached through an abstract method or a strategy stays a megamorphic call
 * in the loop (about 40% slower). Even with a single subclass, a generic element type costs a cast at every
 * comparison and slot write (about 25%). Here the loop makes only static calls on {@code QueueEntry} fields and
 * branches on a final field that is the same at every step, which the CPU predicts. The sharing still costs about
 * 10% without pinned lanes (C2 calls the shared loops rather than inlining them); with pinned lanes it is even, as
 * the lane index now compares heads without going through the lanes.
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
class IntrusiveHeap {
    /** A lane's entries. */
    static final int LANE_ENTRIES = 0;
    /** The head entries of lanes, one per lane. */
    static final int LANE_HEADS = 1;
    /** Entries by deadline. */
    static final int DEADLINES = 2;

    private final int role;
    private QueueEntry[] entries;
    private int size;

    IntrusiveHeap(int role, int initialCapacity) {
        this.role = role;
        this.entries = new QueueEntry[initialCapacity];
    }

    final int size() {
        return size;
    }

    /** The least entry, or {@code null} when empty. */
    final QueueEntry peek() {
        return size == 0 ? null : entries[0];
    }

    /** Adds an entry not held here; true when it became the root. */
    final boolean insert(QueueEntry entry) {
        if (size == entries.length) {
            entries = Arrays.copyOf(entries, size * 2);
        }
        return siftUp(size++, entry) == 0;
    }

    /**
     * Removes the entry at a slot. The removed entry is not touched (its owner resets its slot), so it may already
     * have left its lane.
     *
     * @return true when it was the root.
     */
    final boolean removeAt(int slot) {
        QueueEntry last = entries[--size];
        entries[size] = null;
        if (slot != size) {
            place(slot, last);
        }
        return slot == 0;
    }

    /** Puts an entry in the place of the one at a slot (which is not touched) and restores the order. */
    final void replaceAt(int slot, QueueEntry entry) {
        place(slot, entry);
    }

    private void place(int slot, QueueEntry entry) {
        if (slot > 0 && before(entry, entries[(slot - 1) >>> 1])) {
            siftUp(slot, entry);
        } else {
            siftDown(slot, entry);
        }
    }

    private int siftUp(int slot, QueueEntry entry) {
        while (slot > 0) {
            int parent = (slot - 1) >>> 1;
            QueueEntry above = entries[parent];
            if (!before(entry, above)) {
                break;
            }
            entries[slot] = above;
            slot(above, slot);
            slot = parent;
        }
        entries[slot] = entry;
        slot(entry, slot);
        return slot;
    }

    private void siftDown(int slot, QueueEntry entry) {
        int half = size >>> 1;
        while (slot < half) {
            int child = 2 * slot + 1;
            QueueEntry best = entries[child];
            int right = child + 1;
            if (right < size && before(entries[right], best)) {
                child = right;
                best = entries[right];
            }
            if (!before(best, entry)) {
                break;
            }
            entries[slot] = best;
            slot(best, slot);
            slot = child;
        }
        entries[slot] = entry;
        slot(entry, slot);
    }

    private boolean before(QueueEntry a, QueueEntry b) {
        return role == DEADLINES ? DeadlineIndex.earlier(a, b) : EntryOrder.before(a, b);
    }

    private void slot(QueueEntry entry, int slot) {
        if (role == LANE_ENTRIES) {
            entry.heapIndex = slot;
        } else if (role == LANE_HEADS) {
            entry.heap.indexPos = slot;
        } else {
            entry.dueIndex = slot;
        }
    }
}
