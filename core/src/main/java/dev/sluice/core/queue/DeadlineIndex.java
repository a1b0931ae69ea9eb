package dev.sluice.core.queue;

import dev.sluice.core.api.ClassifyRequest;
import java.util.Arrays;

/**
 * Every queued entry that has a deadline, as an intrusive binary min-heap on {@code dueAt} (ties by sequence); the
 * entry keeps its slot in {@link QueueEntry#dueIndex}. An expiry sweep therefore costs O(expired · log n) instead
 * of a scan of the whole backlog, and the earliest deadline is known for the scheduler's timer.
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
final class DeadlineIndex {
    private QueueEntry[] entries = new QueueEntry[16];
    private int size;

    int size() {
        return size;
    }

    /** The earliest deadline, or {@link ClassifyRequest#NO_DEADLINE} when no queued entry has one. */
    long earliestDueAt() {
        return size == 0 ? ClassifyRequest.NO_DEADLINE : entries[0].dueAt();
    }

    /** The entry with the earliest deadline, or {@code null}. */
    QueueEntry peek() {
        return size == 0 ? null : entries[0];
    }

    void add(QueueEntry entry) {
        if (size == entries.length) {
            entries = Arrays.copyOf(entries, size * 2);
        }
        siftUp(size++, entry);
    }

    /** Removes an entry if it is indexed (entries without a deadline never are). */
    void remove(QueueEntry entry) {
        int slot = entry.dueIndex;
        if (slot < 0) {
            return;
        }
        QueueEntry last = entries[--size];
        entries[size] = null;
        entry.dueIndex = -1;
        if (slot != size) {
            if (slot > 0 && earlier(last, entries[(slot - 1) >>> 1])) {
                siftUp(slot, last);
            } else {
                siftDown(slot, last);
            }
        }
    }

    private static boolean earlier(QueueEntry a, QueueEntry b) {
        return a.dueAt() != b.dueAt() ? a.dueAt() < b.dueAt() : a.sequence < b.sequence;
    }

    private void siftUp(int slot, QueueEntry entry) {
        while (slot > 0) {
            int parent = (slot - 1) >>> 1;
            QueueEntry above = entries[parent];
            if (!earlier(entry, above)) {
                break;
            }
            entries[slot] = above;
            above.dueIndex = slot;
            slot = parent;
        }
        entries[slot] = entry;
        entry.dueIndex = slot;
    }

    private void siftDown(int slot, QueueEntry entry) {
        int half = size >>> 1;
        while (slot < half) {
            int child = 2 * slot + 1;
            QueueEntry best = entries[child];
            int right = child + 1;
            if (right < size && earlier(entries[right], best)) {
                child = right;
                best = entries[right];
            }
            if (!earlier(best, entry)) {
                break;
            }
            entries[slot] = best;
            best.dueIndex = slot;
            slot = child;
        }
        entries[slot] = entry;
        entry.dueIndex = slot;
    }
}
