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
    /** The index's slot limit at the last reset: every recorded slot is below it. */
    private int slots;
    private int matchedCount;
    /** The recorded slots, {@code matched[0 .. matchedCount)}, listed only once someone asks for them. */
    private int[] matched = new int[64];
    private boolean listed;
    private long[] alive = new long[1];
    private int maxBlocks;

    /** Clears the previous result and sizes the buffers for {@code index}'s slots. */
    void reset(KvIndex index, int slots, int words) {
        if (matchedCount > 0) {
            // One sequential fill over the last query's slots: cheaper than keeping a list of the slots recorded, and
            // a selection reads every candidate's slot anyway.
            Arrays.fill(blocksBySlot, 0, this.slots, 0);
        }
        matchedCount = 0;
        listed = false;
        maxBlocks = 0;
        this.index = index;
        this.slots = slots;
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

    /**
     * Records {@code blocks} (at least 1) for the slots set in {@code bits}, bit-set word {@code word}; each slot once
     * per query, in order of blocks (a walk records the ranks that drop out at each depth), so the last {@code blocks}
     * recorded are the most.
     */
    void record(int word, long bits, int blocks) {
        int[] bySlot = blocksBySlot;
        int base = word << 6;
        matchedCount += Long.bitCount(bits);
        for (; bits != 0; bits &= bits - 1) {
            bySlot[base + Long.numberOfTrailingZeros(bits)] = blocks;
        }
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
        return index.workerAt(matchedSlot(i));
    }

    /** The matched blocks of the {@code i}-th matched worker rank. */
    public int matchedBlocks(int i) {
        return blocksBySlot[matchedSlot(i)];
    }

    /** The longest match over all workers, in blocks. */
    public int maxBlocks() {
        return maxBlocks;
    }

    private int matchedSlot(int i) {
        Objects.checkIndex(i, matchedCount);
        if (!listed) {
            // In slot order: a matched slot's blocks are at least 1, an unmatched one's 0.
            if (matched.length < matchedCount) {
                matched = new int[Math.max(matchedCount, matched.length * 2)];
            }
            int n = 0;
            for (int slot = 0; slot < slots && n < matchedCount; slot++) {
                if (blocksBySlot[slot] != 0) {
                    matched[n++] = slot;
                }
            }
            listed = true;
        }
        return matched[i];
    }
}
