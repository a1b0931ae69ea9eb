package dev.sluice.core.select;

import java.util.Arrays;
import org.agrona.collections.IntArrayList;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * Which {@link ActiveLoad}s have booked which block, over all ranks of one {@link ActiveSequences}: a map from block
 * sequence hash to the bit set of the load slots holding it. A load sets its bit when its refcount of a block goes
 * from 0 to 1 and clears it when it returns to 0, so booking and freeing cost one more map operation per block. In
 * exchange {@link #match} finds every load's booked leading run of a request in one walk over the request's blocks
 * (one lookup per block, not per rank), and {@link #held} reads a load's run from an array.
 *
 * <p>Owned by the scheduler thread; not thread-safe. Bit sets are pooled and results reused, so a warm instance
 * allocates nothing.
 */
final class BookedBlocks {
    private final Long2ObjectHashMap<long[]> holders = new Long2ObjectHashMap<>();
    private final IntArrayList freeSlots = new IntArrayList();
    private final IntArrayList matched = new IntArrayList();
    private long[][] pool = new long[16][];
    private int pooled;
    private int slotLimit;
    private int words = 1;
    private int[] heldBySlot = new int[64];
    private long[] alive = new long[1];

    /** A slot for a new load: its bit in every block's set. */
    int newSlot() {
        int slot = freeSlots.isEmpty() ? slotLimit++ : freeSlots.removeAt(freeSlots.size() - 1);
        words = Math.max(words, (slot >>> 6) + 1);
        if (slot >= heldBySlot.length) {
            heldBySlot = Arrays.copyOf(heldBySlot, Math.max(slot + 1, heldBySlot.length * 2));
        }
        if (alive.length < words) {
            alive = new long[words];
        }
        return slot;
    }

    /** Returns {@code slot} for reuse; the load that had it must have released every block first. */
    void freeSlot(int slot) {
        heldBySlot[slot] = 0;
        freeSlots.addInt(slot);
    }

    /** The load in {@code slot} now books block {@code sequenceHash} (its refcount went from 0 to 1). */
    void hold(long sequenceHash, int slot) {
        long[] set = holders.get(sequenceHash);
        int word = slot >>> 6;
        if (set == null || set.length <= word) {
            long[] grown = pooled > 0 ? pool[--pooled] : new long[words];
            if (grown.length < words) {
                grown = new long[words];
            }
            if (set != null) {
                System.arraycopy(set, 0, grown, 0, set.length);
            }
            set = grown;
            holders.put(sequenceHash, set);
        }
        set[word] |= 1L << slot;
    }

    /** The load in {@code slot} no longer books block {@code sequenceHash} (its refcount returned to 0). */
    void release(long sequenceHash, int slot) {
        long[] set = holders.get(sequenceHash);
        int word = slot >>> 6;
        if (set == null || set.length <= word) {
            return;
        }
        set[word] &= ~(1L << slot);
        if (set[word] == 0 && isEmpty(set)) {
            holders.remove(sequenceHash);
            if (pooled == pool.length) {
                pool = Arrays.copyOf(pool, pool.length * 2);
            }
            pool[pooled++] = set;
        }
    }

    /** Distinct blocks booked by any load. */
    int blockCount() {
        return holders.size();
    }

    /**
     * Records, for every load, how many leading blocks of {@code sequenceHashes[0 .. count)} it has booked (every
     * one of them from the first), until the next call. One lookup per block, stopping at the first block no load
     * has booked together with all the blocks before it.
     */
    void match(long[] sequenceHashes, int count) {
        for (int i = 0; i < matched.size(); i++) {
            heldBySlot[matched.getInt(i)] = 0;
        }
        matched.clear();
        int n = words;
        long[] run = alive;
        long[] first = count == 0 ? null : holders.get(sequenceHashes[0]);
        if (first == null) {
            return;
        }
        for (int w = 0; w < n; w++) {
            run[w] = w < first.length ? first[w] : 0L;
        }
        int depth = 1;
        while (depth < count) {
            long[] set = holders.get(sequenceHashes[depth]);
            long remaining = 0;
            for (int w = 0; w < n; w++) {
                long before = run[w];
                long after = set == null || w >= set.length ? 0L : before & set[w];
                // A load missing this block keeps the run it had: depth blocks.
                for (long dropped = before & ~after; dropped != 0; dropped &= dropped - 1) {
                    record((w << 6) + Long.numberOfTrailingZeros(dropped), depth);
                }
                run[w] = after;
                remaining |= after;
            }
            if (remaining == 0) {
                return;
            }
            depth++;
        }
        for (int w = 0; w < n; w++) {
            for (long left = run[w]; left != 0; left &= left - 1) {
                record((w << 6) + Long.numberOfTrailingZeros(left), depth);
            }
        }
    }

    /** Leading blocks of the last {@link #match}ed request booked by the load in {@code slot}. */
    int held(int slot) {
        return heldBySlot[slot];
    }

    private void record(int slot, int blocks) {
        heldBySlot[slot] = blocks;
        matched.addInt(slot);
    }

    private static boolean isEmpty(long[] set) {
        for (long word : set) {
            if (word != 0) {
                return false;
            }
        }
        return true;
    }
}
