package dev.sluice.transport.engine.sim;

import org.agrona.collections.Long2LongHashMap;

/**
 * One rank's KV cache as the mid-2025 mocker models it: {@code capacity} block slots, each free, active (reference
 * count ≥ 1) or inactive (count 0, still resident for prefix hits, on an LRU list). Complete blocks are known by
 * their id (the chained sequence hash, or a unique id when prefix caching is off); partial blocks by their slot.
 * <ul>
 *   <li>{@link #useFull}: each block is shared if active, reactivated if inactive, else stored in a free slot or in
 *   the slot of the least recently inactive block (evicted: {@code Removed}). Newly stored blocks are published as
 *   one {@code Stored} per contiguous run, each chained from the block before it.</li>
 *   <li>{@link #usePartial}, {@link #promote} (partial → complete; {@code Stored} only if the id is new),
 *   {@link #deref} (count 0 → inactive, most recent), {@link #destroyPartial}, {@link #destroy}
 *   ({@code Removed}).</li>
 * </ul>
 * With prefix caching off nothing is published and a block whose count drops to 0 is freed at once.
 * Owned by the rank's engine thread; not thread-safe.
 */
final class KvManager {
    static final int NONE = -1;

    private final int capacity;
    private final boolean keepInactive;
    private final KvEventPublisher publisher;
    private final long[] blockId;
    private final int[] refCount;
    private final boolean[] complete;
    private final int[] lruPrev;
    private final int[] lruNext;
    private final int[] freeSlots;
    private final Long2LongHashMap slotOf;
    private int freeCount;
    private int lruHead = NONE;
    private int lruTail = NONE;
    private int activeBlocks;
    private int inactiveBlocks;

    /** {@code publisher} null publishes nothing; {@code keepInactive} false frees unreferenced blocks at once. */
    KvManager(int capacity, boolean keepInactive, KvEventPublisher publisher) {
        this.capacity = capacity;
        this.keepInactive = keepInactive;
        this.publisher = publisher;
        this.blockId = new long[capacity];
        this.refCount = new int[capacity];
        this.complete = new boolean[capacity];
        this.lruPrev = new int[capacity];
        this.lruNext = new int[capacity];
        this.freeSlots = new int[capacity];
        this.slotOf = new Long2LongHashMap(Math.max(8, capacity * 2), 0.65f, NONE);
        for (int i = 0; i < capacity; i++) {
            freeSlots[i] = capacity - 1 - i;
        }
        this.freeCount = capacity;
    }

    /**
     * Use of blocks {@code [0, count)} of a chain whose tokens are {@code tokens} (for the published events). On
     * failure (no free or inactive slot left) the blocks taken so far are dereferenced again and false is
     * returned; blocks stored meanwhile stay resident and published.
     */
    boolean useFull(long[] ids, long[] localHashes, int[] tokens, int count) {
        return useFull(ids, localHashes, tokens, 0, count);
    }

    /** Use of blocks {@code [from, to)} of a chain whose earlier blocks the caller already holds; as above. */
    boolean useFull(long[] ids, long[] localHashes, int[] tokens, int from, int to) {
        int count = to;
        int runStart = NONE;
        for (int i = from; i < count; i++) {
            int slot = (int) slotOf.get(ids[i]);
            if (slot != NONE) {
                runStart = publishRun(ids, localHashes, tokens, runStart, i);
                acquire(slot);
                continue;
            }
            slot = takeSlot();
            if (slot == NONE) {
                publishRun(ids, localHashes, tokens, runStart, i);
                for (int j = i - 1; j >= from; j--) {
                    deref(ids[j]);
                }
                return false;
            }
            complete[slot] = true;
            blockId[slot] = ids[i];
            refCount[slot] = 1;
            slotOf.put(ids[i], slot);
            activeBlocks++;
            if (runStart == NONE) {
                runStart = i;
            }
        }
        publishRun(ids, localHashes, tokens, runStart, count);
        return true;
    }

    /** A new partial block; its slot, or {@link #NONE} when the cache is full of active blocks. */
    int usePartial() {
        int slot = takeSlot();
        if (slot != NONE) {
            complete[slot] = false;
            refCount[slot] = 1;
            activeBlocks++;
        }
        return slot;
    }

    /**
     * The partial block in {@code slot} became complete with identity {@code id}, chained from {@code parent}; it is
     * block {@code block} of {@code tokens}.
     */
    void promote(int slot, long id, long localHash, int[] tokens, int block, boolean hasParent, long parent) {
        if (complete[slot] || refCount[slot] != 1) {
            throw new IllegalStateException("slot " + slot + " is not a partial block in use");
        }
        int existing = (int) slotOf.get(id);
        if (existing != NONE) {
            acquire(existing);
            release(slot);
            activeBlocks--;
            return;
        }
        complete[slot] = true;
        blockId[slot] = id;
        slotOf.put(id, slot);
        if (publisher != null) {
            publisher.stored(hasParent, parent, id, localHash, tokens, block);
        }
    }

    /** One reference to complete block {@code id} fewer; at 0 it becomes the most recent inactive block. */
    void deref(long id) {
        int slot = (int) slotOf.get(id);
        if (slot == NONE || refCount[slot] == 0) {
            throw new IllegalStateException("block " + Long.toHexString(id) + " is not active");
        }
        if (--refCount[slot] > 0) {
            return;
        }
        activeBlocks--;
        if (keepInactive) {
            inactiveBlocks++;
            linkLast(slot);
        } else {
            slotOf.remove(id);
            release(slot);
        }
    }

    /** Frees partial block {@code slot} (its sequence ended or was preempted). */
    void destroyPartial(int slot) {
        if (complete[slot] || refCount[slot] != 1) {
            throw new IllegalStateException("slot " + slot + " is not a partial block in use");
        }
        activeBlocks--;
        release(slot);
    }

    /** Removes complete block {@code id} at once, whatever its count, and publishes {@code Removed}. */
    void destroy(long id) {
        int slot = (int) slotOf.remove(id);
        if (slot == NONE) {
            return;
        }
        if (refCount[slot] > 0) {
            activeBlocks--;
        } else {
            unlink(slot);
            inactiveBlocks--;
        }
        release(slot);
        if (publisher != null) {
            publisher.removed(id);
        }
    }

    /** Whether complete block {@code id} is resident (active or inactive). */
    boolean isResident(long id) {
        return slotOf.containsKey(id);
    }

    /** Reference count of complete block {@code id}: 0 if inactive, {@link #NONE} if not resident. */
    int refCount(long id) {
        int slot = (int) slotOf.get(id);
        return slot == NONE ? NONE : refCount[slot];
    }

    /** Inactive block ids, least recently made inactive first. */
    long[] inactiveInLruOrder() {
        long[] ids = new long[inactiveBlocks];
        int n = 0;
        for (int slot = lruHead; slot != NONE; slot = lruNext[slot]) {
            ids[n++] = blockId[slot];
        }
        return ids;
    }

    int activeBlocks() {
        return activeBlocks;
    }

    int inactiveBlocks() {
        return inactiveBlocks;
    }

    int capacity() {
        return capacity;
    }

    private void acquire(int slot) {
        if (refCount[slot]++ == 0) {
            unlink(slot);
            inactiveBlocks--;
            activeBlocks++;
        }
    }

    private int takeSlot() {
        if (freeCount > 0) {
            return freeSlots[--freeCount];
        }
        int slot = lruHead;
        if (slot == NONE) {
            return NONE;
        }
        unlink(slot);
        inactiveBlocks--;
        slotOf.remove(blockId[slot]);
        if (publisher != null) {
            publisher.removed(blockId[slot]);
        }
        return slot;
    }

    private void release(int slot) {
        complete[slot] = false;
        refCount[slot] = 0;
        freeSlots[freeCount++] = slot;
    }

    private int publishRun(long[] ids, long[] localHashes, int[] tokens, int runStart, int end) {
        if (runStart != NONE && publisher != null) {
            publisher.stored(ids, localHashes, tokens, runStart, end);
        }
        return NONE;
    }

    private void linkLast(int slot) {
        lruPrev[slot] = lruTail;
        lruNext[slot] = NONE;
        if (lruTail == NONE) {
            lruHead = slot;
        } else {
            lruNext[lruTail] = slot;
        }
        lruTail = slot;
    }

    private void unlink(int slot) {
        int prev = lruPrev[slot];
        int next = lruNext[slot];
        if (prev == NONE) {
            lruHead = next;
        } else {
            lruNext[prev] = next;
        }
        if (next == NONE) {
            lruTail = prev;
        } else {
            lruPrev[next] = prev;
        }
    }
}
