package dev.sluice.core.queue;

import dev.sluice.core.api.ClassifyRequest;

/**
 * Every queued entry that has a deadline, as an {@link IntrusiveHeap} on {@code dueAt} (ties by sequence); the
 * entry keeps its slot in {@link QueueEntry#dueIndex}. An expiry sweep therefore costs O(expired · log n) instead
 * of a scan of the whole backlog, and the earliest deadline is known for the scheduler's timer.
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
final class DeadlineIndex {
    private final IntrusiveHeap entries = new IntrusiveHeap(IntrusiveHeap.DEADLINES, 16);

    /** The order of the index: earlier deadline first, then earlier enqueue. */
    static boolean earlier(QueueEntry a, QueueEntry b) {
        return a.dueAt() != b.dueAt() ? a.dueAt() < b.dueAt() : a.sequence < b.sequence;
    }

    int size() {
        return entries.size();
    }

    /** The earliest deadline, or {@link ClassifyRequest#NO_DEADLINE} when no queued entry has one. */
    long earliestDueAt() {
        QueueEntry first = entries.peek();
        return first == null ? ClassifyRequest.NO_DEADLINE : first.dueAt();
    }

    /** The entry with the earliest deadline, or {@code null}. */
    QueueEntry peek() {
        return entries.peek();
    }

    void add(QueueEntry entry) {
        entries.insert(entry);
    }

    /** Removes an entry if it is indexed (entries without a deadline never are). */
    void remove(QueueEntry entry) {
        int slot = entry.dueIndex;
        if (slot >= 0) {
            entry.dueIndex = -1;
            entries.removeAt(slot);
        }
    }
}
