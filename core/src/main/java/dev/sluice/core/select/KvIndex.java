package dev.sluice.core.select;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.kv.KvEvent;
import java.util.Arrays;
import org.agrona.collections.IntArrayList;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.Object2IntHashMap;

/**
 * Which worker rank holds which block prefix (dynamo-mocker.md §7.2), fed by {@link KvEvent}s. A radix tree keyed by
 * local block hash under the parent block; each node holds the set of worker ranks storing that block, and each rank
 * has a map from its sequence hashes to nodes so that {@code Removed} is O(1) per block. A rank matches a request
 * only as far as it holds every block from the first: removing a middle block cuts its match there even if it still
 * holds later ones. Nodes no rank holds and with no children are pruned, so memory follows what is cached.
 *
 * <p>Owned by the scheduler thread; not thread-safe. {@link #findMatches} allocates nothing once warm; applying
 * events allocates tree nodes.
 */
public final class KvIndex {
    private final KvNode root = new KvNode(0L, null);
    private final Object2IntHashMap<WorkerWithDpRank> slots = new Object2IntHashMap<>(-1);
    private final IntArrayList freeSlots = new IntArrayList();
    private WorkerBlocks[] bySlot = new WorkerBlocks[64];
    private long[] liveSlots = new long[1];
    private int slotLimit;
    private int nodes;
    /** Bumped whenever a rank gains or loses a slot, so a caller's cached slot can be checked without a lookup. */
    private long slotsVersion;
    private long droppedEvents;

    /** A rank's slot in the tree's bit sets and its sequence hash → node map. */
    private static final class WorkerBlocks {
        final WorkerWithDpRank worker;
        final Long2ObjectHashMap<KvNode> blocks = new Long2ObjectHashMap<>();

        WorkerBlocks(WorkerWithDpRank worker) {
            this.worker = worker;
        }
    }

    /** Applies one event. A {@code Stored} run whose parent this rank does not hold is dropped and counted. */
    public void apply(KvEvent event) {
        switch (event) {
            case KvEvent.Stored stored -> stored(stored);
            case KvEvent.Removed removed -> removed(removed);
            case KvEvent.Cleared cleared -> {
                int slot = slotOf(cleared.worker());
                if (slot >= 0) {
                    clearSlot(slot);
                }
            }
        }
    }

    /** Forgets a rank entirely (it left the fleet); its slot is reused. */
    public void removeWorker(WorkerWithDpRank worker) {
        int slot = slotOf(worker);
        if (slot < 0) {
            return;
        }
        clearSlot(slot);
        slots.removeKey(worker);
        bySlot[slot] = null;
        liveSlots[slot >>> 6] &= ~(1L << slot);
        freeSlots.addInt(slot);
        slotsVersion++;
    }

    /**
     * Fills {@code out} with each rank's matched prefix of {@code localHashes[0 .. length)}: the number of leading
     * blocks it holds, every one of them. The first two bit-set words (slots 0 to 127) live in locals and are read
     * from the nodes' fields, so for a fleet of up to 128 ranks a step down the tree is a child lookup and two ANDs;
     * words from the third on are kept in {@code out}'s buffer.
     */
    public void findMatches(long[] localHashes, int length, OverlapScores out) {
        int words = liveSlots.length;
        out.reset(this, slotLimit, words);
        long[] alive = out.alive();
        System.arraycopy(liveSlots, 0, alive, 0, words);
        long alive0 = alive[0];
        long alive1 = words > 1 ? alive[1] : 0L;
        KvNode node = root;
        int depth = 0;
        while (depth < length) {
            KvNode child = node.child(localHashes[depth]);
            if (child == null) {
                break;
            }
            long after0 = alive0 & child.word0();
            long after1 = alive1 & child.word1();
            long remaining = after0 | after1;
            if (depth > 0 && ((alive0 ^ after0) | (alive1 ^ after1)) != 0) {
                // Ranks missing here keep the prefix they matched so far: depth blocks.
                record(out, 0, alive0 & ~after0, depth);
                record(out, 1, alive1 & ~after1, depth);
            }
            alive0 = after0;
            alive1 = after1;
            for (int w = 2; w < words; w++) {
                long before = alive[w];
                long after = before & child.word(w);
                if (depth > 0) {
                    record(out, w, before & ~after, depth);
                }
                alive[w] = after;
                remaining |= after;
            }
            depth++;
            if (remaining == 0) {
                return;
            }
            node = child;
        }
        if (depth > 0) {
            record(out, 0, alive0, depth);
            record(out, 1, alive1, depth);
            for (int w = 2; w < words; w++) {
                record(out, w, alive[w], depth);
            }
        }
    }

    /** Records {@code blocks} for the slots set in bit-set word {@code word}, if any. */
    private static void record(OverlapScores out, int word, long bits, int blocks) {
        if (bits != 0) {
            out.record(word, bits, blocks);
        }
    }

    /** As {@link #findMatches(long[], int, OverlapScores)} over the whole array. */
    public void findMatches(long[] localHashes, OverlapScores out) {
        findMatches(localHashes, localHashes.length, out);
    }

    /** Tree nodes (cached block positions), the root excluded. */
    public int nodeCount() {
        return nodes;
    }

    /** {@code Stored} runs dropped because their parent was unknown (a gap in the rank's events). */
    public long droppedEvents() {
        return droppedEvents;
    }

    /** Blocks {@code worker} is known to hold. */
    public int blockCount(WorkerWithDpRank worker) {
        int slot = slotOf(worker);
        return slot < 0 ? 0 : bySlot[slot].blocks.size();
    }

    int slotOf(WorkerWithDpRank worker) {
        return slots.getValue(worker);
    }

    /**
     * {@code worker}'s slot, the index into {@link OverlapScores#blocksAt}, or -1 while the index knows nothing of
     * it. One map lookup: a caller keeps it until {@link #slotsVersion()} changes.
     */
    public int slot(WorkerWithDpRank worker) {
        return slotOf(worker);
    }

    /** Changes whenever a slot is assigned or freed; a slot read at the same version is still valid. */
    public long slotsVersion() {
        return slotsVersion;
    }

    WorkerWithDpRank workerAt(int slot) {
        return bySlot[slot].worker;
    }

    private void stored(KvEvent.Stored event) {
        int slot = slotOf(event.worker());
        KvNode node = root;
        if (event.hasParent()) {
            KvNode parent = slot < 0 ? null : bySlot[slot].blocks.get(event.parentSequenceHash());
            if (parent == null || !parent.has(slot)) {
                droppedEvents++;
                return;
            }
            node = parent;
        }
        if (slot < 0) {
            slot = newSlot(event.worker());
        }
        Long2ObjectHashMap<KvNode> blocks = bySlot[slot].blocks;
        long[] sequence = event.sequenceHashes();
        long[] local = event.localHashes();
        for (int i = 0; i < local.length; i++) {
            KvNode child = node.child(local[i]);
            if (child == null) {
                child = new KvNode(local[i], node);
                node.addChild(child);
                nodes++;
            }
            child.add(slot);
            KvNode previous = blocks.put(sequence[i], child);
            if (previous != null && previous != child && previous.remove(slot)) {
                // The same identity now names another position: the old one is no longer held under it.
                prune(previous);
            }
            node = child;
        }
    }

    private void removed(KvEvent.Removed event) {
        int slot = slotOf(event.worker());
        if (slot < 0) {
            return;
        }
        Long2ObjectHashMap<KvNode> blocks = bySlot[slot].blocks;
        for (long hash : event.sequenceHashes()) {
            KvNode node = blocks.remove(hash);
            if (node != null && node.remove(slot)) {
                prune(node);
            }
        }
    }

    private void clearSlot(int slot) {
        Long2ObjectHashMap<KvNode> blocks = bySlot[slot].blocks;
        for (KvNode node : blocks.values()) {
            if (node.remove(slot)) {
                prune(node);
            }
        }
        blocks.clear();
    }

    /** Detaches {@code node} and then its ancestors while they are held by no rank and have no children. */
    private void prune(KvNode node) {
        while (node != root && node.parent != null && node.workerCount() == 0 && !node.hasChildren()) {
            KvNode parent = node.parent;
            parent.removeChild(node);
            node.parent = null;
            nodes--;
            node = parent;
        }
    }

    private int newSlot(WorkerWithDpRank worker) {
        int slot = freeSlots.isEmpty() ? slotLimit++ : freeSlots.removeAt(freeSlots.size() - 1);
        if (slot >= bySlot.length) {
            bySlot = Arrays.copyOf(bySlot, bySlot.length * 2);
        }
        if ((slot >>> 6) >= liveSlots.length) {
            liveSlots = Arrays.copyOf(liveSlots, (slot >>> 6) + 1);
        }
        bySlot[slot] = new WorkerBlocks(worker);
        liveSlots[slot >>> 6] |= 1L << slot;
        slots.put(worker, slot);
        slotsVersion++;
        return slot;
    }
}
