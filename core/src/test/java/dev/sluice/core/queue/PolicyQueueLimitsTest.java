package dev.sluice.core.queue;

import static dev.sluice.core.queue.QueueFixtures.always;
import static dev.sluice.core.queue.QueueFixtures.limited;
import static dev.sluice.core.queue.QueueFixtures.poll;
import static dev.sluice.core.queue.QueueFixtures.profile;
import static dev.sluice.core.queue.QueueFixtures.req;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.config.QueuePolicy;
import org.junit.jupiter.api.Test;

/** Limits before adding, per-worker scaling, the never-queue carve-out, and removal accounting (Dynamo §5.2). */
class PolicyQueueLimitsTest {
    private final DispatchGate free = always(true);

    /** Dynamo {@code per_worker_caps_scale_and_remain_pre_add}; reference item 46. */
    @Test
    void shouldScalePerWorkerCapsAndCheckThemBeforeAdding() {
        PolicyQueues q = new PolicyQueues(profile(limited("capped", QueuePolicy.FCFS, 10, 1L, 5L, 3L)));
        assertNull(q.enqueue(req("first", 0).tokens(8, 4).build(), 2, free));
        assertNull(q.enqueue(req("overshoot", 0).tokens(100, 100).build(), 2, free));
        QueueRejection r = q.enqueue(req("rejected", 0).tokens(1, 0).build(), 2, free);
        assertEquals(new QueueRejection("capped", QueueRejection.LimitKind.REQUESTS, 2, 2), r);
        assertEquals(108, q.pendingRawIslTokens(0));
        assertEquals(104, q.pendingCachedTokens(0));
        assertEquals("router policy class \"capped\" queue requests limit reached (current=2, limit=2)", r.message());
    }

    /** Dynamo {@code per_worker_token_caps_follow_capacity_without_evicting}; reference item 47. */
    @Test
    void shouldFollowWorkerCountForTokenCapsWithoutEvicting() {
        PolicyQueues q = new PolicyQueues(profile(
            limited("raw", QueuePolicy.FCFS, 10, null, 10L, null),
            limited("cached", QueuePolicy.FCFS, 10, null, null, 5L),
            limited("no-workers", QueuePolicy.FCFS, 10, 1L, null, null)));
        assertNull(q.enqueue(req("r1", 0).tokens(11, 0).build(), 2, free));
        assertEquals(new QueueRejection("raw", QueueRejection.LimitKind.RAW_ISL_TOKENS, 11, 10),
            q.enqueue(req("r2", 0).tokens(1, 0).build(), 1, free));
        assertEquals(11, q.pendingRawIslTokens(0));
        assertNull(q.enqueue(req("r3", 0).tokens(10, 0).build(), 2, free));
        assertEquals(new QueueRejection("raw", QueueRejection.LimitKind.RAW_ISL_TOKENS, 21, 20),
            q.enqueue(req("r4", 0).tokens(1, 0).build(), 2, free));

        assertNull(q.enqueue(req("c1", 1).tokens(8, 6).build(), 2, free));
        assertEquals(new QueueRejection("cached", QueueRejection.LimitKind.CACHED_TOKENS, 6, 5),
            q.enqueue(req("c2", 1).tokens(1, 1).build(), 1, free));

        assertEquals(new QueueRejection("no-workers", QueueRejection.LimitKind.REQUESTS, 0, 0),
            q.enqueue(req("n1", 2).build(), 0, free));
    }

    /** Dynamo {@code per_worker_limit_multiplication_saturates}; reference item 48. */
    @Test
    void shouldSaturateWhenMultiplyingAHugePerWorkerLimit() {
        PolicyQueues q = new PolicyQueues(profile(limited("huge", QueuePolicy.FCFS, 1, Long.MAX_VALUE,
            Long.MAX_VALUE, Long.MAX_VALUE)));
        assertNull(q.enqueue(req("a", 0).tokens(5, 2).build(), 2, free));
        assertNull(q.enqueue(req("b", 0).tokens(5, 2).build(), Integer.MAX_VALUE, free));
        assertEquals(2, q.size());
    }

    /** The zero-limit carve-out of Dynamo #14176 (reference item 47, "zero" class): admit if free, never wait. */
    @Test
    void shouldAcceptANeverQueueRequestOnlyWhileItsLaneIsFree() {
        PolicyQueues q = new PolicyQueues(profile(limited("shed", QueuePolicy.FCFS, 1, null, 0L, null)));
        assertEquals(new QueueRejection("shed", QueueRejection.LimitKind.RAW_ISL_TOKENS, 0, 0),
            q.enqueue(req("busy", 0).build(), 4, always(false)));
        assertNull(q.enqueue(req("free", 0).build(), 4, free));
        assertEquals("free", poll(q, free));
    }

    @Test
    void shouldDispatchANeverQueueRequestAdmittedAfterItsLaneWasParked() {
        PolicyQueues q = new PolicyQueues(profile(limited("shed", QueuePolicy.FCFS, 1, 0L, null, null)));
        QueueFixtures.FakeGate gate = new QueueFixtures.FakeGate().workers(1);
        assertNull(q.enqueue(req("first", 0).pinned(0).build(), 1, gate));
        gate.busy.add(gate.workers.get(0));
        assertNull(poll(q, gate));
        gate.busy.clear();
        // The scheduler has not reported the change yet, but the never-queue check saw the worker free.
        assertNull(q.enqueue(req("second", 0).pinned(0).build(), 1, gate));
        assertEquals("first", poll(q, gate));
        assertEquals("second", poll(q, gate));
    }

    /** Dynamo {@code retain_removes_payload_and_rebuilds_queue_accounting}; reference item 49. */
    @Test
    void shouldRebuildAccountingWhenAnEntryIsRemoved() {
        PolicyQueues q = new PolicyQueues(profile(limited("capped", QueuePolicy.FCFS, 10, 4L, null, null)));
        QueueEntry keep = req("keep", 0).tokens(8, 4).build();
        QueueEntry remove = req("remove", 0).tokens(16, 6).build();
        q.enqueue(keep, 1, free);
        q.enqueue(remove, 1, free);
        assertTrue(q.remove(remove));
        assertFalse(q.remove(remove));
        assertFalse(remove.isQueued());
        assertEquals(1, q.size());
        assertEquals(1, q.size(0));
        assertEquals(8, q.pendingRawIslTokens(0));
        assertEquals(4, q.pendingCachedTokens(0));
        assertEquals("keep", poll(q, free));
        assertEquals(0, q.size());
    }

    @Test
    void shouldRefuseToQueueAnEntryTwice() {
        PolicyQueues q = new PolicyQueues(profile(limited("a", QueuePolicy.FCFS, 1, null, null, null)));
        QueueEntry entry = req("x", 0).build();
        q.enqueue(entry, 1, free);
        assertThrows(IllegalStateException.class, () -> q.enqueue(entry, 1, free));
        assertEquals(1, q.size());
    }

    @Test
    void shouldRefuseToRemoveAnEntryQueuedElsewhere() {
        PolicyQueues mine = new PolicyQueues(profile(limited("a", QueuePolicy.FCFS, 1, null, null, null)));
        PolicyQueues other = new PolicyQueues(profile(limited("a", QueuePolicy.FCFS, 1, null, null, null)));
        QueueEntry entry = req("x", 0).build();
        other.enqueue(entry, 1, free);
        assertFalse(mine.remove(entry));
        assertEquals(1, other.size());
    }
}
