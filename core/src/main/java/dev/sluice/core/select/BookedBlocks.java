package dev.sluice.core.select;

import java.util.Arrays;
import org.agrona.collections.IntArrayList;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * The booked blocks of every {@link ActiveLoad} of one {@link ActiveSequences}, in one map from block sequence hash
 * to the block's holders: the bit set of the load slots holding it and each holder's refcount (ordered by slot, so
 * a holder's count is found by counting the bits below its own). Booking or freeing a block is one map lookup, the
 * same as a per-load counter map would cost; a block no load holds any more keeps its (empty) record until empty
 * records outnumber half the map, when one sweep drops them all, so rebooking a block (a shared prefix, the next
 * turn of a chat) neither inserts nor removes a map entry. {@link #match} finds every load's booked leading run of a
 * request from one lookup per change in the set of holders, not per block nor per rank.
 *
 * <p>The holders of a request's block are a subset of the holders of the block before it: loads book leading runs
 * of chains, and a sequence hash names its whole prefix (the assumption {@link ActiveLoad#newBlocks} makes too). So
 * two blocks with as many holders have the same holders, and every block between them has them as well.
 *
 * <p>Owned by the scheduler thread; not thread-safe. Holder records are pooled and results reused, so a warm
 * instance allocates nothing.
 */
final class BookedBlocks {
    /** The loads holding one block. */
    private static final class Holders {
        long[] bits = new long[1];
        int[] refs = new int[4];
        int size;
    }

    /** Empty records kept in any case: a sweep frees at least this many. */
    private static final int MIN_SWEPT = 1024;

    private final Long2ObjectHashMap<Holders> blocks = new Long2ObjectHashMap<>();
    private final IntArrayList freeSlots = new IntArrayList();
    private Holders[] pool = new Holders[16];
    private int pooled;
    /** Records in {@link #blocks} with no holder left. */
    private int empties;
    private int slotLimit;
    private int[] heldBySlot = new int[64];
    /** Whether the last {@link #match} recorded any load: {@link #heldBySlot} then needs clearing. */
    private boolean anyHeld;

    /** A slot for a new load: its bit in every block's set. */
    int newSlot() {
        int slot = freeSlots.isEmpty() ? slotLimit++ : freeSlots.removeAt(freeSlots.size() - 1);
        if (slot >= heldBySlot.length) {
            heldBySlot = Arrays.copyOf(heldBySlot, Math.max(slot + 1, heldBySlot.length * 2));
        }
        return slot;
    }

    /** Releases every block the load in {@code slot} holds and returns the slot for reuse. */
    void freeSlot(int slot) {
        for (var it = blocks.values().iterator(); it.hasNext(); ) {
            Holders holders = it.next();
            if (has(holders, slot)) {
                drop(holders, slot);
                if (holders.size == 0) {
                    empties++;
                }
            }
        }
        sweepIfMostlyEmpty();
        heldBySlot[slot] = 0;
        freeSlots.addInt(slot);
    }

    /** The load in {@code slot} books block {@code sequenceHash} once more; true when it did not hold it before. */
    boolean hold(long sequenceHash, int slot) {
        Holders holders = blocks.get(sequenceHash);
        if (holders == null) {
            holders = pooled > 0 ? pool[--pooled] : new Holders();
            blocks.put(sequenceHash, holders);
        } else if (holders.size == 0) {
            empties--;
        }
        int word = slot >>> 6;
        if (holders.bits.length <= word) {
            holders.bits = Arrays.copyOf(holders.bits, word + 1);
        }
        if (holders.size == 0) {
            // The common case: a block booked on one rank at a time.
            holders.refs[0] = 1;
            holders.size = 1;
            holders.bits[word] = 1L << slot;
            return true;
        }
        int index = index(holders, slot);
        if ((holders.bits[word] & (1L << slot)) != 0) {
            holders.refs[index]++;
            return false;
        }
        if (holders.size == holders.refs.length) {
            holders.refs = Arrays.copyOf(holders.refs, holders.size * 2);
        }
        if (index < holders.size) {
            System.arraycopy(holders.refs, index, holders.refs, index + 1, holders.size - index);
        }
        holders.refs[index] = 1;
        holders.size++;
        holders.bits[word] |= 1L << slot;
        return true;
    }

    /** The load in {@code slot} frees one booking of {@code sequenceHash}; true when it no longer holds it. */
    boolean release(long sequenceHash, int slot) {
        Holders holders = blocks.get(sequenceHash);
        if (holders == null || !has(holders, slot)) {
            return false;
        }
        if (holders.size == 1) {
            if (--holders.refs[0] > 0) {
                return false;
            }
            holders.size = 0;
            holders.bits[slot >>> 6] = 0L;
        } else if (--holders.refs[index(holders, slot)] > 0) {
            return false;
        } else {
            drop(holders, slot);
        }
        if (holders.size == 0) {
            empties++;
            sweepIfMostlyEmpty();
        }
        return true;
    }

    /** True when the load in {@code slot} books block {@code sequenceHash}. */
    boolean holds(long sequenceHash, int slot) {
        Holders holders = blocks.get(sequenceHash);
        return holders != null && has(holders, slot);
    }

    /** Distinct blocks booked by any load. */
    int blockCount() {
        return blocks.size() - empties;
    }

    /** Records in the map, empty ones included (for tests). */
    int records() {
        return blocks.size();
    }

    /**
     * Records, for every load, how many leading blocks of {@code sequenceHashes[0 .. count)} it has booked (every
     * one of them from the first), until the next call. Bisects the request between blocks with different numbers
     * of holders: one lookup per step, about (loads whose runs end apart) × log2(count) lookups in all.
     */
    void match(long[] sequenceHashes, int count) {
        if (anyHeld) {
            // One sequential fill over every load's place: a selection reads every candidate's place anyway, and a
            // fill costs less than keeping a list of the places recorded.
            Arrays.fill(heldBySlot, 0, slotLimit, 0);
            anyHeld = false;
        }
        Holders first = count == 0 ? null : blocks.get(sequenceHashes[0]);
        if (first == null || first.size == 0) {
            return;
        }
        Holders last = count == 1 ? first : blocks.get(sequenceHashes[count - 1]);
        if (last != null) {
            recordDropped(last, null, count);
        }
        split(sequenceHashes, 0, first, count - 1, last);
    }

    /** Leading blocks of the last {@link #match}ed request booked by the load in {@code slot}. */
    int held(int slot) {
        return heldBySlot[slot];
    }

    /** Records the loads holding block {@code low} ({@code atLow}) but not block {@code high} ({@code atHigh}). */
    private void split(long[] sequenceHashes, int low, Holders atLow, int high, Holders atHigh) {
        if (atLow.size == (atHigh == null ? 0 : atHigh.size)) {
            return;
        }
        if (high - low == 1) {
            recordDropped(atLow, atHigh, high);
            return;
        }
        int mid = (low + high) >>> 1;
        Holders atMid = blocks.get(sequenceHashes[mid]);
        split(sequenceHashes, low, atLow, mid, atMid);
        if (atMid != null) {
            split(sequenceHashes, mid, atMid, high, atHigh);
        }
    }

    /** Every load in {@code kept} and not in {@code next} holds {@code blocks} leading blocks. */
    private void recordDropped(Holders kept, Holders next, int blocks) {
        int[] held = heldBySlot;
        long[] keptBits = kept.bits;
        for (int w = 0; w < keptBits.length; w++) {
            long after = next == null || w >= next.bits.length ? 0L : next.bits[w];
            long dropped = keptBits[w] & ~after;
            if (dropped != 0) {
                anyHeld = true;
            }
            for (; dropped != 0; dropped &= dropped - 1) {
                held[(w << 6) + Long.numberOfTrailingZeros(dropped)] = blocks;
            }
        }
    }

    private static boolean has(Holders holders, int slot) {
        int word = slot >>> 6;
        return word < holders.bits.length && (holders.bits[word] & (1L << slot)) != 0;
    }

    /** Where the refcount of {@code slot} is (or goes) in {@code holders.refs}: the holders with lower slots. */
    private static int index(Holders holders, int slot) {
        int word = slot >>> 6;
        int below = 0;
        for (int w = 0; w < word; w++) {
            below += Long.bitCount(holders.bits[w]);
        }
        return below + Long.bitCount(holders.bits[word] & ((1L << slot) - 1));
    }

    /** Removes holder {@code slot} (which holds the block) whatever its refcount. */
    private static void drop(Holders holders, int slot) {
        int index = index(holders, slot);
        if (index + 1 < holders.size) {
            System.arraycopy(holders.refs, index + 1, holders.refs, index, holders.size - index - 1);
        }
        holders.size--;
        holders.bits[slot >>> 6] &= ~(1L << slot);
    }

    /** Drops every empty record once they are more than half the map (and a few): O(1) per release, amortized. */
    private void sweepIfMostlyEmpty() {
        if (empties <= MIN_SWEPT || empties * 2 <= blocks.size()) {
            return;
        }
        for (var it = blocks.values().iterator(); it.hasNext(); ) {
            Holders holders = it.next();
            if (holders.size == 0) {
                it.remove();
                if (pooled == pool.length) {
                    pool = Arrays.copyOf(pool, pool.length * 2);
                }
                pool[pooled++] = holders;
            }
        }
        empties = 0;
    }
}
