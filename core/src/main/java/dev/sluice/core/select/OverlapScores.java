package dev.sluice.core.select;

import dev.sluice.core.api.WorkerWithDpRank;
import java.util.Arrays;
import org.agrona.collections.IntArrayList;

/**
 * The result of {@link KvIndex#findMatches}: per worker rank, how many leading blocks of the request it holds.
 * Reused across queries: a warm instance allocates nothing. Valid until the next query into it or the next change
 * to the index that filled it.
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
public final class OverlapScores {
    private KvIndex index;
    private int[] blocksBySlot = new int[64];
    private final IntArrayList matched = new IntArrayList();
    private long[] alive = new long[1];
    private int maxBlocks;

    /** Clears the previous result and sizes the buffers for {@code index}'s slots. */
    void reset(KvIndex index, int slots, int words) {
        for (int i = 0; i < matched.size(); i++) {
            blocksBySlot[matched.getInt(i)] = 0;
        }
        matched.clear();
        maxBlocks = 0;
        this.index = index;
        if (blocksBySlot.length < slots) {
            blocksBySlot = Arrays.copyOf(blocksBySlot, Math.max(slots, blocksBySlot.length * 2));
        }
        if (alive.length < words) {
            alive = new long[words];
        }
    }

    long[] alive() {
        return alive;
    }

    void record(int slot, int blocks) {
        blocksBySlot[slot] = blocks;
        matched.addInt(slot);
        maxBlocks = Math.max(maxBlocks, blocks);
    }

    /** Matched prefix length in blocks of {@code worker}; 0 when it holds none of it or is unknown. */
    public int blocks(WorkerWithDpRank worker) {
        int slot = index == null ? -1 : index.slotOf(worker);
        return slot < 0 || slot >= blocksBySlot.length ? 0 : blocksBySlot[slot];
    }

    /**
     * Matched prefix length in blocks of the rank in {@code slot} ({@link KvIndex#slot}); 0 for -1 (a rank the
     * index does not know). An array read: selection among many ranks makes no lookup per candidate.
     */
    public int blocksAt(int slot) {
        return slot < 0 || slot >= blocksBySlot.length ? 0 : blocksBySlot[slot];
    }

    /** How many worker ranks matched at least one block. */
    public int matchedWorkers() {
        return matched.size();
    }

    /** The {@code i}-th matched worker rank, {@code 0 <= i < matchedWorkers()}, in no particular order. */
    public WorkerWithDpRank matchedWorker(int i) {
        return index.workerAt(matched.getInt(i));
    }

    /** The matched blocks of the {@code i}-th matched worker rank. */
    public int matchedBlocks(int i) {
        return blocksBySlot[matched.getInt(i)];
    }

    /** The longest match over all workers, in blocks. */
    public int maxBlocks() {
        return maxBlocks;
    }
}
