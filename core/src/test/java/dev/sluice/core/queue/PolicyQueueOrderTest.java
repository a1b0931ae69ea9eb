package dev.sluice.core.queue;

import static dev.sluice.core.queue.QueueFixtures.MS;
import static dev.sluice.core.queue.QueueFixtures.SECOND;
import static dev.sluice.core.queue.QueueFixtures.always;
import static dev.sluice.core.queue.QueueFixtures.cls;
import static dev.sluice.core.queue.QueueFixtures.poll;
import static dev.sluice.core.queue.QueueFixtures.profile;
import static dev.sluice.core.queue.QueueFixtures.req;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.core.config.QueuePolicy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The order inside a class (Dynamo §5.3): strict priority, due_at, policy score, enqueue sequence. */
class PolicyQueueOrderTest {
    private final DispatchGate free = always(true);

    private static List<String> drain(PolicyQueues q, DispatchGate gate) {
        List<String> out = new ArrayList<>();
        for (String name = poll(q, gate); name != null; name = poll(q, gate)) {
            out.add(name);
        }
        return out;
    }

    /** Dynamo {@code fcfs_and_wspt_order_only_within_each_class}; reference item 50. */
    @Test
    void shouldApplyFcfsAndWsptOnlyWithinTheirOwnClass() {
        PolicyQueues q = new PolicyQueues(profile(cls("fcfs", QueuePolicy.FCFS, 50),
            cls("wspt", QueuePolicy.WSPT, 50)));
        q.enqueue(req("fcfs-long", 0).cost(50).at(0).build(), 1, free);
        q.enqueue(req("fcfs-short", 0).cost(1).at(SECOND).build(), 1, free);
        q.enqueue(req("wspt-long", 1).cost(50).at(0).build(), 1, free);
        q.enqueue(req("wspt-short", 1).cost(1).at(SECOND).build(), 1, free);
        assertEquals("fcfs-long", poll(q, free));
        assertEquals("wspt-short", poll(q, free));
    }

    @Test
    void shouldServeHigherStrictPriorityBeforeEverythingElse() {
        PolicyQueues q = new PolicyQueues(profile(cls("c", QueuePolicy.FCFS, 100)));
        q.enqueue(req("due-soon", 0).due(SECOND).at(0).build(), 1, free);
        q.enqueue(req("jumped", 0).jump(100).at(0).build(), 1, free);
        q.enqueue(req("strict", 0).strict(1).at(5 * SECOND).build(), 1, free);
        assertEquals(List.of("strict", "due-soon", "jumped"), drain(q, free));
    }

    @Test
    void shouldServeDeadlinesEarliestFirstAheadOfEntriesWithoutOne() {
        PolicyQueues q = new PolicyQueues(profile(cls("c", QueuePolicy.WSPT, 100)));
        q.enqueue(req("no-deadline-cheap", 0).cost(1).build(), 1, free);
        q.enqueue(req("due-late", 0).cost(90).due(9 * SECOND).build(), 1, free);
        q.enqueue(req("due-early", 0).cost(90).due(3 * SECOND).build(), 1, free);
        assertEquals(List.of("due-early", "due-late", "no-deadline-cheap"), drain(q, free));
    }

    @Test
    void shouldLetAPriorityJumpOvertakeThatManySecondsOfArrivals() {
        PolicyQueues q = new PolicyQueues(profile(cls("c", QueuePolicy.FCFS, 100)));
        q.enqueue(req("first", 0).at(0).build(), 1, free);
        q.enqueue(req("jump-half-second", 0).jump(0.5).at(400 * MS).build(), 1, free);
        q.enqueue(req("jump-too-small", 0).jump(0.5).at(600 * MS).build(), 1, free);
        q.enqueue(req("negative-jump", 0).jump(-5).at(50 * MS).build(), 1, free);
        assertEquals(List.of("jump-half-second", "first", "negative-jump", "jump-too-small"), drain(q, free));
    }

    @Test
    void shouldOrderFcfsByArrivalNanosEvenAtLargeClockValues() {
        PolicyQueues q = new PolicyQueues(profile(cls("c", QueuePolicy.FCFS, 100)));
        long base = 4_000_000_000_000_000_000L;
        q.enqueue(req("second", 0).at(base + 2).build(), 1, free);
        q.enqueue(req("first", 0).at(base + 1).build(), 1, free);
        assertEquals(List.of("first", "second"), drain(q, free));
    }

    @Test
    void shouldWeightWsptByPriorityJumpOverCost() {
        PolicyQueues q = new PolicyQueues(profile(cls("c", QueuePolicy.WSPT, 1000)));
        q.enqueue(req("score-0.1", 0).cost(10).build(), 1, free);
        q.enqueue(req("score-0.2", 0).cost(20).jump(3).build(), 1, free);
        q.enqueue(req("score-0.125", 0).cost(8).build(), 1, free);
        assertEquals(List.of("score-0.2", "score-0.125", "score-0.1"), drain(q, free));
    }

    @Test
    void shouldBreakTiesByEnqueueOrder() {
        PolicyQueues q = new PolicyQueues(profile(cls("c", QueuePolicy.WSPT, 1000)));
        for (int i = 0; i < 5; i++) {
            q.enqueue(req("r" + i, 0).cost(4).build(), 1, free);
        }
        assertEquals(List.of("r0", "r1", "r2", "r3", "r4"), drain(q, free));
    }
}
