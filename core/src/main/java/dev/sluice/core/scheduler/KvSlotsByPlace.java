package dev.sluice.core.scheduler;

import dev.sluice.core.select.KvIndex;

/**
 * Each registered rank's KV-index slot ({@link KvIndex#slot}, -1: none) by its place in the table's worker order, so
 * that a selection reads every rank's overlap as an array read. Looked up again only after the index assigned or
 * freed a slot or the workers changed ({@link #places}).
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
final class KvSlotsByPlace {
    private final KvIndex index;
    private WorkerState[] ordered = new WorkerState[0];
    private int[] slots = new int[0];
    /** The index's slot version {@link #slots} was read at; -1 (never the index's): to be read. */
    private long version = -1;

    KvSlotsByPlace(KvIndex index) {
        this.index = index;
    }

    /** The workers changed: they are now {@code ordered}, every slot to be read again. */
    void places(WorkerState[] ordered) {
        this.ordered = ordered;
        slots = new int[ordered.length];
        version = -1;
    }

    /** The slot of the worker in each place of the workers last given to {@link #places}. */
    int[] slots() {
        WorkerState[] ordered = this.ordered;
        long current = index.slotsVersion();
        if (version != current) {
            for (int i = 0; i < ordered.length; i++) {
                slots[i] = index.slot(ordered[i].id);
            }
            version = current;
        }
        return slots;
    }
}
