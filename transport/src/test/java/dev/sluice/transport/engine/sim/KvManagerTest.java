package dev.sluice.transport.engine.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.kv.KvEvent;
import dev.sluice.transport.testing.RecordingKvSink;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Ports of the mocker's kv_manager.rs tests: capacity failure and the block lifecycle. */
class KvManagerTest {
    private final RecordingKvSink sink = new RecordingKvSink();
    /** The events' tokens are only read for an engine listener, which these tests have none of. */
    private static final int[] NO_TOKENS = new int[0];

    private final KvManager kv = new KvManager(10, true,
        new KvEventPublisher(new WorkerWithDpRank(3, 0), sink));

    @Test
    void shouldFailUseOnMaxCapacityWithoutChangingState() {
        KvManager small = new KvManager(10, true, null);
        long[] ten = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
        assertTrue(small.useFull(ten, locals(ten), NO_TOKENS, 10));
        assertEquals(10, small.activeBlocks());

        assertFalse(small.useFull(new long[] {10}, new long[] {110}, NO_TOKENS, 1));
        assertEquals(KvManager.NONE, small.usePartial());
        assertEquals(10, small.activeBlocks());
        assertEquals(KvManager.NONE, small.refCount(10));
    }

    @Test
    void shouldFollowTheBlockLifecycleExactly() {
        useAll(0, 1, 2, 3, 4);
        assertStored(0, false, 0, 0, 1, 2, 3, 4);
        int partial = kv.usePartial();
        useAll(0, 1, 5, 6);
        assertStored(1, true, 1, 5, 6);
        assertRefCounts(new long[] {0, 1, 2, 3, 4, 5, 6}, 2, 2, 1, 1, 1, 1, 1);
        assertEquals(8, kv.activeBlocks());

        kv.deref(4);
        kv.deref(3);
        kv.deref(2);
        assertArrayEquals(new long[] {4, 3, 2}, kv.inactiveInLruOrder());
        kv.destroyPartial(partial);
        for (long id : new long[] {6, 5, 1, 0}) {
            kv.deref(id);
        }
        assertRefCounts(new long[] {0, 1, 2, 5, 6}, 1, 1, 0, 0, 0);
        assertArrayEquals(new long[] {4, 3, 2, 6, 5}, kv.inactiveInLruOrder());
        assertEquals(2, kv.activeBlocks());

        useAll(0, 1, 2);
        assertArrayEquals(new long[] {4, 3, 6, 5}, kv.inactiveInLruOrder());
        int reactivating = kv.usePartial();
        kv.promote(reactivating, 3, 103, NO_TOKENS, 0, true, 2);
        assertRefCounts(new long[] {0, 1, 2, 3}, 2, 2, 1, 1);
        assertArrayEquals(new long[] {4, 6, 5}, kv.inactiveInLruOrder());
        assertEquals(4, kv.activeBlocks());
        assertEquals(2, sink.events().size(), "a reactivated block is not stored again");

        int storing = kv.usePartial();
        kv.promote(storing, 7, 107, NO_TOKENS, 0, true, 3);
        assertStored(2, true, 3, 7);
        assertEquals(5, kv.activeBlocks());

        useAll(10, 11, 12, 13);
        assertRemoved(3, 4);
        assertRemoved(4, 6);
        assertStored(5, false, 0, 10, 11, 12, 13);
        assertArrayEquals(new long[] {5}, kv.inactiveInLruOrder());
        assertEquals(9, kv.activeBlocks());

        long[] tooMany = {14, 15};
        assertFalse(kv.useFull(tooMany, locals(tooMany), NO_TOKENS, 2));
        assertRemoved(6, 5);
        assertStored(7, false, 0, 14);
        assertArrayEquals(new long[] {14}, kv.inactiveInLruOrder(), "the stored block is rolled back to inactive");
        assertEquals(9, kv.activeBlocks());

        kv.destroy(14);
        kv.destroy(7);
        assertRemoved(8, 14);
        assertRemoved(9, 7);
        assertEquals(0, kv.inactiveBlocks());
        assertEquals(8, kv.activeBlocks());
        assertEquals(KvManager.NONE, kv.refCount(7));
    }

    @Test
    void shouldFreeUnreferencedBlocksAtOnceWithoutPrefixCaching() {
        KvManager uncached = new KvManager(4, false, null);
        long[] ids = {41, 42};
        assertTrue(uncached.useFull(ids, locals(ids), NO_TOKENS, 2));
        uncached.deref(42);
        uncached.deref(41);
        assertEquals(0, uncached.inactiveBlocks());
        assertFalse(uncached.isResident(41));
    }

    private void useAll(long... ids) {
        assertTrue(kv.useFull(ids, locals(ids), NO_TOKENS, ids.length));
    }

    private static long[] locals(long[] ids) {
        long[] locals = new long[ids.length];
        for (int i = 0; i < ids.length; i++) {
            locals[i] = ids[i] + 100;
        }
        return locals;
    }

    private void assertRefCounts(long[] ids, int... counts) {
        for (int i = 0; i < ids.length; i++) {
            assertEquals(counts[i], kv.refCount(ids[i]), "ref count of block " + ids[i]);
        }
    }

    private void assertStored(int index, boolean hasParent, long parent, long... ids) {
        List<KvEvent> events = sink.events();
        KvEvent.Stored stored = assertInstanceOf(KvEvent.Stored.class, events.get(index));
        assertEquals(index, stored.eventId());
        assertEquals(new WorkerWithDpRank(3, 0), stored.worker());
        assertEquals(hasParent, stored.hasParent());
        assertEquals(parent, stored.parentSequenceHash());
        assertArrayEquals(ids, stored.sequenceHashes());
        assertArrayEquals(locals(ids), stored.localHashes());
    }

    private void assertRemoved(int index, long id) {
        KvEvent.Removed removed = assertInstanceOf(KvEvent.Removed.class, sink.events().get(index));
        assertEquals(index, removed.eventId());
        assertArrayEquals(new long[] {id}, removed.sequenceHashes());
    }
}
