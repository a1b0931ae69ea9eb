package dev.sluice.core.select;

import dev.sluice.core.api.WorkerWithDpRank;
import java.util.Arrays;
import java.util.Objects;

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
    /** The slots recorded since the last reset, {@code matched[0 .. matchedCount)}. */
    private int[] matched = new int[64];
    private int matchedCount;
    private long[] alive = new long[1];
    private int maxBlocks;

    /** Clears the previous result and sizes the buffers for {@code index}'s slots. */
    void reset(KvIndex index, int slots, int words) {
        if (matchedCount * 8 >= blocksBySlot.length) {
            // Most slots matched (a fleet sharing a prefix): one sequential fill beats a scattered clear.
            Arrays.fill(blocksBySlot, 0);
        } else {
            for (int i = 0; i < matchedCount; i++) {
                blocksBySlot[matched[i]] = 0;
            }
        }
        matchedCount = 0;
        maxBlocks = 0;
        this.index = index;
        if (blocksBySlot.length < slots) {
            blocksBySlot = Arrays.copyOf(blocksBySlot, Math.max(slots, blocksBySlot.length * 2));
            matched = new int[blocksBySlot.length];
        }
        if (alive.length < words) {
            alive = new long[words];
        }
    }

    long[] alive() {
        return alive;
    }

    /**
     * Records {@code blocks} for {@code slot}, below the index's slot limit; each slot once per query, in order of
     * blocks (a walk records the ranks that drop out at each depth), so the last one recorded has the most.
     */
    void record(int slot, int blocks) {
        blocksBySlot[slot] = blocks;
        matched[matchedCount++] = slot;
        maxBlocks = blocks;
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
        return matchedCount;
    }

    /** The {@code i}-th matched worker rank, {@code 0 <= i < matchedWorkers()}, in no particular order. */
    public WorkerWithDpRank matchedWorker(int i) {
        return index.workerAt(matched[Objects.checkIndex(i, matchedCount)]);
    }

    /** The matched blocks of the {@code i}-th matched worker rank. */
    public int matchedBlocks(int i) {
        return blocksBySlot[matched[Objects.checkIndex(i, matchedCount)]];
    }

    /** The longest match over all workers, in blocks. */
    public int maxBlocks() {
        return maxBlocks;
    }
}
