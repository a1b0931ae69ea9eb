package dev.sluice.core.queue;

import static dev.sluice.core.queue.QueueFixtures.always;
import static dev.sluice.core.queue.QueueFixtures.fcfsClasses;
import static dev.sluice.core.queue.QueueFixtures.poll;
import static dev.sluice.core.queue.QueueFixtures.req;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.WorkerWithDpRank;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Deficit round robin across classes (Dynamo §5.5). */
class PolicyQueueDrrTest {
    private final DispatchGate free = always(true);
    private final QueueFixtures.FakeGate gate = new QueueFixtures.FakeGate().workers(3);

    /** Dynamo {@code drr_weights_progress_and_skips_blocked_classes_without_credit}; reference item 51. */
    @Test
    void shouldWeightProgressAndSkipBlockedClassesWithoutCredit() {
        PolicyQueues q = new PolicyQueues(fcfsClasses(1, 3));
        for (int i = 0; i < 6; i++) {
            q.enqueue(req("slow", 0).build(), 1, gate);
            q.enqueue(req("fast", 1).build(), 1, gate);
        }
        int fast = 0;
        for (int i = 0; i < 6; i++) {
            fast += "fast".equals(poll(q, gate)) ? 1 : 0;
        }
        assertTrue(fast >= 3, "fast class served " + fast + " of 6");
        long fastDeficit = q.deficit(1);
        gate.blockedClasses.add("c1");
        assertEquals("slow", poll(q, gate));
        assertEquals(fastDeficit, q.deficit(1));
    }

    /** Dynamo {@code drr_carry_uses_next_dispatchable_lane}. */
    @Test
    void shouldCarryCreditOnlyToAnAffordableDispatchableLane() {
        PolicyQueues q = new PolicyQueues(fcfsClasses(10, 1));
        q.enqueue(req("agents-first", 0).cost(5).at(0).build(), 3, gate);
        q.enqueue(req("agents-blocked", 0).cost(1).at(1).pinned(1).build(), 3, gate);
        q.enqueue(req("agents-ready", 0).cost(10).at(2).pinned(2).build(), 3, gate);
        q.enqueue(req("batch", 1).cost(1).build(), 3, gate);
        gate.busy.add(WorkerWithDpRank.of(1));
        assertEquals("agents-first", poll(q, gate));
        assertEquals(5, q.deficit(0));
        assertEquals("batch", poll(q, gate));
        assertEquals(5, q.deficit(0));
    }

    /** Dynamo {@code drr_carry_spends_credit_before_the_next_ring_turn}; docs example quantum 10, costs 3. */
    @Test
    void shouldSpendCarriedCreditBeforeTheNextRingTurn() {
        PolicyQueues q = new PolicyQueues(fcfsClasses(10, 1));
        for (int i = 0; i < 4; i++) {
            q.enqueue(req("agents-" + i, 0).cost(3).at(i).build(), 1, free);
        }
        q.enqueue(req("batch", 1).cost(1).build(), 1, free);
        List<String> order = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            order.add(poll(q, free));
        }
        assertEquals(List.of("agents-0", "agents-1", "agents-2", "batch"), order);
        assertEquals(1, q.deficit(0));
    }

    /** Dynamo {@code drr_serves_exact_quantum_ratio_for_equal_cost_backlogs}. */
    @Test
    void shouldServeTheExactQuantumRatioForEqualCostBacklogs() {
        PolicyQueues q = new PolicyQueues(fcfsClasses(1, 3));
        for (int i = 0; i < 60; i++) {
            if (i < 20) {
                q.enqueue(req("one", 0).build(), 1, free);
            }
            q.enqueue(req("three", 1).build(), 1, free);
        }
        for (int chunk = 0; chunk < 20; chunk++) {
            List<String> four = List.of(poll(q, free), poll(q, free), poll(q, free), poll(q, free));
            assertEquals(List.of("one", "three", "three", "three"), four, "chunk " + chunk);
        }
    }

    /** Dynamo {@code fully_blocked_ring_returns_without_accruing_deficit}. */
    @Test
    void shouldNotAccrueDeficitWhileTheWholeRingIsBlocked() {
        PolicyQueues q = new PolicyQueues(fcfsClasses(7, 11));
        q.enqueue(req("a", 0).cost(100).build(), 1, free);
        q.enqueue(req("b", 1).cost(100).build(), 1, free);
        for (int i = 0; i < 10_000; i++) {
            assertNull(poll(q, always(false)));
            q.onLoadChanged();
        }
        assertEquals(0, q.deficit(0));
        assertEquals(0, q.deficit(1));
    }

    /** Dynamo {@code oversized_heads_bulk_add_deficit_and_make_progress}. */
    @Test
    void shouldFastForwardDeficitForAnOversizedHeadInOnePoll() {
        PolicyQueues q = new PolicyQueues(fcfsClasses(4, 100));
        q.enqueue(req("large", 0).cost(101).build(), 1, gate);
        q.enqueue(req("blocked", 1).cost(1).build(), 1, gate);
        gate.blockedClasses.add("c1");
        assertEquals("large", poll(q, gate));
        assertEquals(1, q.size());
        assertEquals(0, q.deficit(1));
    }

    /** The docs' bulk example: standard q1000 head 7000 vs latency q2000 head 9000, four rounds fast-forwarded. */
    @Test
    void shouldFastForwardEveryDispatchableClassByTheSameNumberOfRounds() {
        PolicyQueues q = new PolicyQueues(fcfsClasses(1000, 2000));
        q.enqueue(req("standard", 0).cost(7000).build(), 1, free);
        q.enqueue(req("standard-next", 0).cost(7000).build(), 1, free);
        q.enqueue(req("latency", 1).cost(9000).build(), 1, free);
        q.enqueue(req("latency-next", 1).cost(9000).build(), 1, free);
        assertEquals("latency", poll(q, free));
        assertEquals(1000, q.deficit(1));
        assertEquals(5000, q.deficit(0));
        assertEquals(0, q.roundCursor());
    }

    @Test
    void shouldSaturateDeficitInsteadOfOverflowing() {
        PolicyQueues q = new PolicyQueues(fcfsClasses(Long.MAX_VALUE - 1, 1));
        q.enqueue(req("huge-a", 0).cost(Long.MAX_VALUE).build(), 1, free);
        q.enqueue(req("huge-b", 0).cost(3).build(), 1, free);
        q.enqueue(req("small", 1).cost(Long.MAX_VALUE).build(), 1, free);
        assertEquals("huge-a", poll(q, free));
        assertEquals(0, q.deficit(0));
    }

    /** Dynamo {@code arrival_drains_other_class_backlog_instead_of_bypassing}; reference item 53. */
    @Test
    void shouldGiveFreedCapacityToAnotherClassBacklogBeforeANewArrival() {
        PolicyQueues q = new PolicyQueues(fcfsClasses(1, 1));
        gate.busy.addAll(gate.workers);
        q.enqueue(req("backlog", 0).build(), 3, gate);
        assertNull(poll(q, gate));
        gate.busy.remove(WorkerWithDpRank.of(0));
        q.onWorkerChanged(WorkerWithDpRank.of(0));
        q.enqueue(req("arrival", 1).build(), 3, gate);
        assertEquals("backlog", poll(q, gate));
    }

    /**
     * A busy threshold lets one request go per opening (the worker is busy again at once), so every other poll meets a
     * blocked ring. The carried class keeps its turn through those polls (Dynamo: it stays the carry class while its
     * deficit lasts), so shares still follow the quanta; dropping the carry at a blocked poll moved the cursor on
     * after every dispatch and served about one request per class per round, near 1:1:1 here.
     */
    @Test
    void shouldKeepTheQuantumRatioWhenTheGateAdmitsOneRequestPerOpening() {
        PolicyQueues q = new PolicyQueues(fcfsClasses(3000, 2000, 1000));
        SplittableRandom random = new SplittableRandom(7);
        for (int c = 0; c < 3; c++) {
            for (int i = 0; i < 32; i++) {
                q.enqueue(req("c" + c, c).cost(random.nextLong(500, 1500)).build(), 3, gate);
            }
        }
        long[] served = new long[3];
        for (int i = 0; i < 30_000; i++) {
            gate.busy.clear();
            q.onLoadChanged();
            QueueEntry e = q.pollDispatchable(gate, 0, QueueFixtures.IGNORE_EXPIRED);
            served[e.classIndex()] += e.costTokens();
            gate.busy.addAll(gate.workers);
            q.onLoadChanged();
            assertNull(poll(q, gate));
            q.enqueue(req("refill", e.classIndex()).cost(random.nextLong(500, 1500)).build(), 3, gate);
        }
        double total = served[0] + served[1] + served[2];
        double[] expected = {3 / 6.0, 2 / 6.0, 1 / 6.0};
        for (int c = 0; c < 3; c++) {
            double share = served[c] / total;
            assertTrue(Math.abs(share - expected[c]) <= 0.01, "class " + c + " share " + share);
        }
    }

    /** Dynamo docs: premium/regular 512:128 share about 4:1 of served cost tokens under a permanent backlog. */
    @Test
    void shouldShareServiceFourToOneWithQuanta512To128UnderBacklog() {
        PolicyQueues q = new PolicyQueues(fcfsClasses(512, 128));
        SplittableRandom random = new SplittableRandom(42);
        for (int c = 0; c < 2; c++) {
            for (int i = 0; i < 64; i++) {
                q.enqueue(req("c" + c, c).cost(random.nextLong(1, 600)).build(), 1, free);
            }
        }
        long[] served = new long[2];
        for (int i = 0; i < 200_000; i++) {
            QueueEntry e = q.pollDispatchable(free, 0, QueueFixtures.IGNORE_EXPIRED);
            served[e.classIndex()] += e.costTokens();
            q.enqueue(req("refill", e.classIndex()).cost(random.nextLong(1, 600)).build(), 1, free);
        }
        double ratio = (double) served[0] / served[1];
        assertTrue(Math.abs(ratio - 4.0) <= 0.2, "premium:regular = " + ratio);
    }
}
