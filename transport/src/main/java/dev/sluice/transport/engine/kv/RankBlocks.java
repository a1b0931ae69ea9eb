package dev.sluice.transport.engine.kv;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.kv.BlockHasher;
import dev.sluice.core.kv.KvEvent;
import dev.sluice.core.kv.KvEventSink;
import dev.sluice.transport.metrics.KvEventMetrics;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.LongArrayList;
import org.agrona.collections.LongHashSet;

/**
 * One worker rank's blocks as the router knows them: each stored block's engine hash (opaque) mapped to the
 * router's own sequence hash, which {@link BlockHasher} computes from the block's tokens and its parent's sequence
 * hash. That map resolves a later {@code parent_block_hash} and {@code BlockRemoved}; translated events go to the
 * router's sink with this rank's own event ids. Blocks the router's index cannot use are left out and counted:
 * <ul>
 *   <li>another medium than the GPU, a group that is not the rank's one full-attention group (the first seen);</li>
 *   <li>blocks whose hash had extra keys (LoRA, multimodal, a cache salt), and every block chained from them;</li>
 *   <li>blocks of another size than the router's, or chained from a parent never seen stored.</li>
 * </ul>
 * Owned by the subscriber thread; not thread-safe.
 */
final class RankBlocks {
    private static final String GPU = "GPU";
    private static final String FULL_ATTENTION = "full_attention";
    private static final long MISSING = Long.MIN_VALUE;

    private final WorkerWithDpRank worker;
    private final BlockHasher hasher;
    private final KvEventSink sink;
    private final KvEventMetrics.Worker counters;
    private final Long2LongHashMap sequenceOf = new Long2LongHashMap(MISSING);
    private final LongHashSet leftOut = new LongHashSet();
    private int indexedGroup = KvWireEvent.NO_GROUP;
    private long nextEventId;

    RankBlocks(WorkerWithDpRank worker, BlockHasher hasher, KvEventSink sink, KvEventMetrics.Worker counters) {
        this.worker = worker;
        this.hasher = hasher;
        this.sink = sink;
        this.counters = counters;
    }

    /**
     * Applies one engine event. Returns null, or what to log when the event could not be used for a reason an
     * operator must fix (block sizes that differ).
     */
    String apply(KvWireEvent event) {
        return switch (event) {
            case KvWireEvent.BlockStored stored -> stored(stored);
            case KvWireEvent.BlockRemoved removed -> {
                removed(removed);
                yield null;
            }
            case KvWireEvent.AllBlocksCleared cleared -> {
                counters.reset(KvEventMetrics.Reset.CLEARED);
                clear();
                yield null;
            }
        };
    }

    /** Forgets every block and tells the router the rank's cache is unknown (empty until new events). */
    void clear() {
        sequenceOf.clear();
        leftOut.clear();
        indexedGroup = KvWireEvent.NO_GROUP;
        emit(new KvEvent.Cleared(worker, nextEventId++));
    }

    /** Blocks known now (for tests and diagnostics). */
    int size() {
        return sequenceOf.size();
    }

    private String stored(KvWireEvent.BlockStored stored) {
        if (!onGpu(stored.medium())) {
            counters.ignore(KvEventMetrics.Ignore.MEDIUM);
            return null;
        }
        if (!indexedGroup(stored.groupIdx(), stored.specKind())) {
            counters.ignore(KvEventMetrics.Ignore.GROUP);
            return null;
        }
        long[] engine = stored.blockHashes();
        if (stored.extraKeys() || stored.hasParent() && leftOut.contains(stored.parentHash())) {
            for (long hash : engine) {
                leftOut.add(hash);
            }
            counters.ignore(KvEventMetrics.Ignore.EXTRA_KEYS);
            return null;
        }
        if (stored.blockSize() != hasher.blockSize()) {
            counters.drop(KvEventMetrics.Drop.BLOCK_SIZE);
            return "the engine stores blocks of " + stored.blockSize() + " tokens, the router hashes blocks of "
                + hasher.blockSize() + " (--block-size): its KV events cannot be matched to prompts until they agree";
        }
        long parent = KvEvent.NO_PARENT;
        if (stored.hasParent()) {
            parent = sequenceOf.get(stored.parentHash());
            if (parent == MISSING) {
                counters.drop(KvEventMetrics.Drop.UNKNOWN_PARENT);
                return null;
            }
        }
        if (engine.length == 0) {
            return null;
        }
        long[] local = hasher.localHashes(stored.tokenIds());
        long[] sequence = new long[local.length];
        for (int i = 0; i < local.length; i++) {
            long previous = i > 0 ? sequence[i - 1] : parent;
            sequence[i] = i == 0 && !stored.hasParent() ? local[0] : BlockHasher.sequenceHash(previous, local[i]);
        }
        for (int i = 0; i < engine.length; i++) {
            // A block whose identity happens to be the map's "missing" marker cannot be kept; it is 1 in 2^64.
            if (sequence[i] != MISSING) {
                sequenceOf.put(engine[i], sequence[i]);
            }
            leftOut.remove(engine[i]);
        }
        emit(new KvEvent.Stored(worker, nextEventId++, stored.hasParent(), parent, sequence, local));
        return null;
    }

    private void removed(KvWireEvent.BlockRemoved removed) {
        if (!onGpu(removed.medium())) {
            counters.ignore(KvEventMetrics.Ignore.MEDIUM);
            return;
        }
        if (removed.groupIdx() != KvWireEvent.NO_GROUP && indexedGroup != KvWireEvent.NO_GROUP
            && removed.groupIdx() != indexedGroup) {
            counters.ignore(KvEventMetrics.Ignore.GROUP);
            return;
        }
        LongArrayList known = new LongArrayList();
        for (long hash : removed.blockHashes()) {
            long sequence = sequenceOf.remove(hash);
            if (sequence != MISSING) {
                known.addLong(sequence);
            } else {
                leftOut.remove(hash);
            }
        }
        if (!known.isEmpty()) {
            emit(new KvEvent.Removed(worker, nextEventId++, known.toLongArray()));
        }
    }

    /** Whether a stored event's group is the one indexed: no group, or the first full-attention group seen. */
    private boolean indexedGroup(int group, String kind) {
        if (kind != null && !FULL_ATTENTION.equals(kind)) {
            return false;
        }
        if (group == KvWireEvent.NO_GROUP) {
            return true;
        }
        if (indexedGroup == KvWireEvent.NO_GROUP) {
            indexedGroup = group;
        }
        return group == indexedGroup;
    }

    private static boolean onGpu(String medium) {
        return medium == null || GPU.equalsIgnoreCase(medium);
    }

    private void emit(KvEvent event) {
        sink.onKvEvent(event);
        counters.event();
    }
}
