package dev.sluice.transport.engine.kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.kv.BlockHasher;
import dev.sluice.core.kv.KvEvent;
import dev.sluice.transport.metrics.KvEventMetrics;
import dev.sluice.transport.testing.RecordingKvSink;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An engine's stored and removed blocks, in its own opaque hashes, become the router's events on the same tokens. */
class RankBlocksTest {
    private static final int BLOCK = 4;
    private static final WorkerWithDpRank WORKER = new WorkerWithDpRank(7, 1);

    private final BlockHasher hasher = new BlockHasher(BLOCK);
    private final RecordingKvSink sink = new RecordingKvSink();
    private final KvEventMetrics.Worker counters = new KvEventMetrics().worker(7);
    private final RankBlocks blocks = new RankBlocks(WORKER, hasher, sink, counters);
    /** Twelve tokens, three blocks: what a prompt hashes to on the router's side. */
    private final int[] prompt = {11, 12, 13, 14, 21, 22, 23, 24, 31, 32, 33, 34};
    private final long[] promptSequence = BlockHasher.sequenceHashes(hasher.localHashes(prompt));

    @Test
    void shouldGiveStoredBlocksTheRouterHashesOfTheirTokensChainedThroughTheEnginesParent() {
        assertNull(blocks.apply(stored(new long[] {0xAAAA, 0xBBBB}, false, 0, 0, 8)));
        assertNull(blocks.apply(stored(new long[] {0xCCCC}, true, 0xBBBB, 8, 12)));

        List<KvEvent.Stored> events = sink.events(KvEvent.Stored.class);
        assertEquals(2, events.size());
        assertFalse(events.get(0).hasParent());
        assertArrayEquals(Arrays.copyOfRange(promptSequence, 0, 2), events.get(0).sequenceHashes());
        assertArrayEquals(Arrays.copyOfRange(hasher.localHashes(prompt), 0, 2), events.get(0).localHashes());
        assertTrue(events.get(1).hasParent());
        assertEquals(promptSequence[1], events.get(1).parentSequenceHash());
        assertArrayEquals(new long[] {promptSequence[2]}, events.get(1).sequenceHashes());
        assertEquals(WORKER, events.get(1).worker());
        assertEquals(List.of(0L, 1L), sink.events().stream().map(KvEvent::eventId).toList());
        assertEquals(2, counters.events());
    }

    @Test
    void shouldRemoveByTheEnginesHashAndSkipHashesItNeverSaw() {
        blocks.apply(stored(new long[] {0xAAAA, 0xBBBB, 0xCCCC}, false, 0, 0, 12));
        blocks.apply(KvWireEvent.BlockRemoved.of(0xCCCC, 0xDDDD, 0xBBBB));
        blocks.apply(KvWireEvent.BlockRemoved.of(0xEEEE));

        List<KvEvent.Removed> removed = sink.events(KvEvent.Removed.class);
        assertEquals(1, removed.size(), "a removal of unknown blocks only says nothing");
        assertArrayEquals(new long[] {promptSequence[2], promptSequence[1]}, removed.get(0).sequenceHashes());
        assertEquals(1, blocks.size());
    }

    @Test
    void shouldDropBlocksChainedFromAParentItNeverSawStored() {
        assertNull(blocks.apply(stored(new long[] {0xCCCC}, true, 0xBBBB, 8, 12)));

        assertEquals(List.of(), sink.events());
        assertEquals(1, counters.dropped(KvEventMetrics.Drop.UNKNOWN_PARENT));
    }

    @Test
    void shouldDropAndExplainBlocksOfAnotherSize() {
        String problem = blocks.apply(KvWireEvent.BlockStored.of(new long[] {1}, false, 0, new int[16], 16));

        assertEquals("the engine stores blocks of 16 tokens, the router hashes blocks of 4 (--block-size): its KV "
            + "events cannot be matched to prompts until they agree", problem);
        assertEquals(List.of(), sink.events());
        assertEquals(1, counters.dropped(KvEventMetrics.Drop.BLOCK_SIZE));
    }

    @Test
    void shouldIgnoreOtherMediaAndBlocksWithExtraKeysWithTheirChildren() {
        blocks.apply(new KvWireEvent.BlockStored(new long[] {1}, false, 0, slice(0, 4), BLOCK, "CPU", false,
            KvWireEvent.NO_GROUP, null));
        blocks.apply(new KvWireEvent.BlockStored(new long[] {2}, false, 0, slice(0, 4), BLOCK, "GPU", true,
            KvWireEvent.NO_GROUP, null));
        blocks.apply(stored(new long[] {3}, true, 2, 4, 8));
        blocks.apply(new KvWireEvent.BlockRemoved(new long[] {1}, "cpu", KvWireEvent.NO_GROUP));

        assertEquals(List.of(), sink.events());
        assertEquals(2, counters.ignored(KvEventMetrics.Ignore.MEDIUM));
        assertEquals(2, counters.ignored(KvEventMetrics.Ignore.EXTRA_KEYS), "the child of a LoRA block too");
        assertEquals(0, counters.dropped(KvEventMetrics.Drop.UNKNOWN_PARENT));
    }

    @Test
    void shouldIndexOnlyTheFirstFullAttentionGroup() {
        blocks.apply(group(new long[] {1}, 0, "sliding_window"));
        blocks.apply(group(new long[] {2}, 1, "full_attention"));
        blocks.apply(group(new long[] {3}, 2, "full_attention"));
        blocks.apply(new KvWireEvent.BlockRemoved(new long[] {2}, "GPU", 0));
        blocks.apply(new KvWireEvent.BlockRemoved(new long[] {2}, "GPU", 2));

        assertEquals(1, sink.events(KvEvent.Stored.class).size());
        assertEquals(List.of(), sink.events(KvEvent.Removed.class), "another group's removal of the same hash");
        assertEquals(4, counters.ignored(KvEventMetrics.Ignore.GROUP));
        blocks.apply(new KvWireEvent.BlockRemoved(new long[] {2}, "GPU", 1));
        assertEquals(1, sink.events(KvEvent.Removed.class).size());
    }

    @Test
    void shouldForgetEverythingWhenTheEngineClearsItsCache() {
        blocks.apply(stored(new long[] {0xAAAA}, false, 0, 0, 4));
        blocks.apply(new KvWireEvent.AllBlocksCleared());
        blocks.apply(stored(new long[] {0xBBBB}, true, 0xAAAA, 4, 8));

        assertEquals(List.of(KvEvent.Stored.class, KvEvent.Cleared.class),
            sink.events().stream().map(Object::getClass).toList());
        assertEquals(1, counters.resets(KvEventMetrics.Reset.CLEARED));
        assertEquals(1, counters.dropped(KvEventMetrics.Drop.UNKNOWN_PARENT), "its old parent is gone");
        assertEquals(0, blocks.size());
    }

    private KvWireEvent.BlockStored stored(long[] hashes, boolean hasParent, long parent, int from, int to) {
        return KvWireEvent.BlockStored.of(hashes, hasParent, parent, slice(from, to), BLOCK);
    }

    private KvWireEvent.BlockStored group(long[] hashes, int group, String kind) {
        return new KvWireEvent.BlockStored(hashes, false, 0, slice(0, 4), BLOCK, "GPU", false, group, kind);
    }

    private int[] slice(int from, int to) {
        return Arrays.copyOfRange(prompt, from, to);
    }
}
