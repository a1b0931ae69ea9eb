package dev.sluice.core.queue;

import static dev.sluice.core.queue.QueueFixtures.SECOND;
import static dev.sluice.core.queue.QueueFixtures.always;
import static dev.sluice.core.queue.QueueFixtures.cls;
import static dev.sluice.core.queue.QueueFixtures.poll;
import static dev.sluice.core.queue.QueueFixtures.profile;
import static dev.sluice.core.queue.QueueFixtures.req;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.PolicyClassSpec;
import dev.sluice.core.config.QueuePolicy;
import org.junit.jupiter.api.Test;

/** Exact-worker lanes, lane-local head-of-line blocking and the parked-lane rechecks (Dynamo §5.4, item 52). */
class PolicyQueueLaneTest {
    private final PolicyQueues q = new PolicyQueues(profile(cls("agents", QueuePolicy.FCFS, 1)));
    private final QueueFixtures.FakeGate gate = new QueueFixtures.FakeGate().workers(3);

    /** Dynamo {@code blocked_worker_lane_does_not_block_another_lane}. */
    @Test
    void shouldDispatchAnotherLaneWhileOneWorkerIsBusy() {
        q.enqueue(req("blocked", 0).pinned(1).at(SECOND).build(), 2, gate);
        q.enqueue(req("ready", 0).pinned(2).at(2 * SECOND).build(), 2, gate);
        gate.busy.add(WorkerWithDpRank.of(1));
        assertEquals("ready", poll(q, gate));
        assertEquals(1, q.size());
    }

    /** Dynamo {@code worker_update_rechecks_only_that_blocked_lane}. */
    @Test
    void shouldRecheckOnlyTheLaneOfTheChangedWorker() {
        q.enqueue(req("worker-1", 0).pinned(1).build(), 2, gate);
        q.enqueue(req("worker-2", 0).pinned(2).build(), 2, gate);
        assertNull(poll(q, always(false)));
        q.onWorkerChanged(WorkerWithDpRank.of(1));
        assertEquals("worker-1", poll(q, always(true)));
        assertNull(poll(q, always(true)));
        q.onWorkerChanged(WorkerWithDpRank.of(2));
        assertEquals("worker-2", poll(q, always(true)));
    }

    /** Dynamo {@code exact_lane_index_tracks_a_new_higher_priority_head}. */
    @Test
    void shouldMakeABoostedArrivalTheHeadOfItsLane() {
        q.enqueue(req("old", 0).pinned(1).at(0).build(), 1, gate);
        q.enqueue(req("boosted", 0).pinned(1).at(SECOND).jump(10).build(), 1, gate);
        assertEquals("boosted", poll(q, gate));
        assertEquals("old", poll(q, gate));
    }

    /** Dynamo {@code exact_lane_head_index_checks_each_blocked_lane_once}: 10 000 lanes, odd workers free. */
    @Test
    void shouldAskTheGateOnceForEachBlockedLane() {
        QueueFixtures.FakeGate lanes = new QueueFixtures.FakeGate().workers(10_000);
        for (int i = 0; i < 10_000; i++) {
            q.enqueue(req("lane-" + i, 0).pinned(i).build(), 10_000, lanes);
            if (i % 2 == 0) {
                lanes.busy.add(WorkerWithDpRank.of(i));
            }
        }
        int popped = 0;
        while (poll(q, lanes) != null) {
            popped++;
        }
        assertEquals(5_000, popped);
        assertEquals(10_000, lanes.workerCalls);
        assertEquals(5_000, q.size());
    }

    @Test
    void shouldPreferABetterExactHeadOverTheSharedHead() {
        q.enqueue(req("shared", 0).at(2 * SECOND).build(), 2, gate);
        q.enqueue(req("pinned-early", 0).pinned(1).at(SECOND).build(), 2, gate);
        q.enqueue(req("pinned-late", 0).pinned(2).at(3 * SECOND).build(), 2, gate);
        assertEquals("pinned-early", poll(q, gate));
        assertEquals("shared", poll(q, gate));
        assertEquals("pinned-late", poll(q, gate));
    }

    @Test
    void shouldNotSearchPastABlockedSharedHead() {
        PolicyClassSpec spec = cls("solo", QueuePolicy.WSPT, 1);
        PolicyQueues solo = new PolicyQueues(profile(spec));
        solo.enqueue(req("head", 0).cost(1).build(), 1, gate);
        solo.enqueue(req("behind", 0).cost(5).build(), 1, gate);
        gate.blockedClasses.add("solo");
        assertNull(poll(solo, gate));
        gate.blockedClasses.clear();
        assertNull(poll(solo, gate), "a parked shared lane waits for a recheck");
        solo.onLoadChanged();
        assertEquals("head", poll(solo, gate));
        assertEquals("behind", poll(solo, gate));
    }

    @Test
    void shouldRecheckSharedLanesWhenAnyWorkerChanges() {
        q.enqueue(req("shared", 0).build(), 3, gate);
        gate.busy.addAll(gate.workers);
        assertNull(poll(q, gate));
        gate.busy.remove(WorkerWithDpRank.of(2));
        q.onWorkerChanged(WorkerWithDpRank.of(2));
        assertEquals("shared", poll(q, gate));
    }

    @Test
    void shouldAskTheSharedGateOncePerPollEvenForACarriedClass() {
        PolicyQueues wide = new PolicyQueues(profile(cls("wide", QueuePolicy.FCFS, 10)));
        wide.enqueue(req("a", 0).cost(6).build(), 1, gate);
        wide.enqueue(req("b", 0).cost(6).build(), 1, gate);
        assertEquals("a", poll(wide, gate));
        gate.sharedCalls = 0;
        assertEquals("b", poll(wide, gate));
        assertEquals(1, gate.sharedCalls);
    }
}
