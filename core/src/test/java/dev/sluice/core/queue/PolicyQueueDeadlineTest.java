package dev.sluice.core.queue;

import static dev.sluice.core.queue.QueueFixtures.MS;
import static dev.sluice.core.queue.QueueFixtures.SECOND;
import static dev.sluice.core.queue.QueueFixtures.always;
import static dev.sluice.core.queue.QueueFixtures.cls;
import static dev.sluice.core.queue.QueueFixtures.fcfsClasses;
import static dev.sluice.core.queue.QueueFixtures.profile;
import static dev.sluice.core.queue.QueueFixtures.req;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.config.QueuePolicy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Deadline expiry while queued (Dynamo §5.6 and the stage-0 deadline tests, on the §5.3 key). */
class PolicyQueueDeadlineTest {
    private final DispatchGate free = always(true);
    private final List<String> expired = new ArrayList<>();
    private final ExpiredSink sink = entry -> expired.add(((QueueFixtures.Req) entry).name);

    private String pollAt(PolicyQueues q, DispatchGate gate, long nowNs) {
        QueueEntry e = q.pollDispatchable(gate, nowNs, sink);
        return e == null ? null : ((QueueFixtures.Req) e).name;
    }

    /** Dynamo {@code dispatch_prunes_every_expired_head_before_the_first_live_one}. */
    @Test
    void shouldShedEveryExpiredEntryBeforeDispatchingTheFirstLiveOne() {
        PolicyQueues q = new PolicyQueues(profile(cls("c", QueuePolicy.FCFS, 1000)));
        q.enqueue(req("expired-1", 0).tokens(4, 0).due(1000 * MS).build(), 1, free);
        q.enqueue(req("expired-2", 0).tokens(4, 0).due(1100 * MS).build(), 1, free);
        q.enqueue(req("expired-3", 0).tokens(4, 0).due(1200 * MS).build(), 1, free);
        q.enqueue(req("live", 0).tokens(4, 0).due(6000 * MS).build(), 1, free);
        assertEquals("live", pollAt(q, free, 1500 * MS));
        assertEquals(List.of("expired-1", "expired-2", "expired-3"), expired);
        assertEquals(0, q.size());
        assertEquals(0, q.pendingRawIslTokens(0));
    }

    /** Dynamo {@code expiry_does_not_charge_deficit_or_advance_the_drr_cursor}. */
    @Test
    void shouldNotChargeDeficitOrMoveTheCursorForExpiredEntries() {
        PolicyQueues q = new PolicyQueues(fcfsClasses(4, 4));
        q.enqueue(req("expired", 0).cost(9).due(SECOND).build(), 1, free);
        q.enqueue(req("second-a", 1).cost(3).at(0).due(600 * SECOND).build(), 1, free);
        q.enqueue(req("second-b", 1).cost(3).at(100 * MS).due(600 * SECOND).build(), 1, free);
        assertEquals("second-a", pollAt(q, free, 1500 * MS));
        assertEquals(List.of("expired"), expired);
        assertEquals(0, q.deficit(0));
        assertEquals(0, q.roundCursor());
        assertEquals(1, q.size());
    }

    /** Dynamo {@code expired_head_is_shed_even_while_its_class_is_undispatchable}. */
    @Test
    void shouldShedAnExpiredEntryWhileItsLaneIsBlocked() {
        PolicyQueues q = new PolicyQueues(profile(cls("c", QueuePolicy.FCFS, 1)));
        QueueEntry pinned = req("pinned", 0).pinned(1).due(SECOND).build();
        q.enqueue(pinned, 1, free);
        assertNull(pollAt(q, always(false), 0));
        assertNull(pollAt(q, always(false), 1500 * MS));
        assertEquals(List.of("pinned"), expired);
        assertEquals(1, pinned.lane().workerId());
        assertFalse(pinned.isQueued());
        assertEquals(0, q.size());
    }

    @Test
    void shouldTreatADeadlineEqualToNowAsExpired() {
        PolicyQueues q = new PolicyQueues(profile(cls("c", QueuePolicy.FCFS, 1)));
        q.enqueue(req("due-now", 0).due(SECOND).build(), 1, free);
        assertNull(pollAt(q, free, SECOND));
        assertEquals(List.of("due-now"), expired);
    }

    /** Dynamo {@code classes_without_an_slo_never_expire}, for entries without a deadline. */
    @Test
    void shouldNeverExpireAnEntryWithoutADeadline() {
        PolicyQueues q = new PolicyQueues(profile(cls("c", QueuePolicy.FCFS, 1)));
        q.enqueue(req("forever", 0).build(), 1, free);
        assertEquals(ClassifyRequest.NO_DEADLINE, q.nextDueAt());
        assertEquals("forever", pollAt(q, free, 86_400 * SECOND));
        assertEquals(List.of(), expired);
    }

    @Test
    void shouldReportTheEarliestDeadlineAndSweepOnlyWhatExpired() {
        PolicyQueues q = new PolicyQueues(profile(cls("c", QueuePolicy.FCFS, 1)));
        QueueEntry late = req("late", 0).due(9 * SECOND).build();
        q.enqueue(late, 1, free);
        q.enqueue(req("early", 0).due(2 * SECOND).build(), 1, free);
        q.enqueue(req("none", 0).build(), 1, free);
        assertEquals(2 * SECOND, q.nextDueAt());
        assertEquals(1, q.sweepExpired(5 * SECOND, sink));
        assertEquals(9 * SECOND, q.nextDueAt());
        q.remove(late);
        assertEquals(ClassifyRequest.NO_DEADLINE, q.nextDueAt());
        assertEquals(0, q.sweepExpired(100 * SECOND, sink));
        assertEquals(List.of("early"), expired);
    }

    @Test
    void shouldResetTheCreditOfAClassEmptiedByExpiry() {
        PolicyQueues q = new PolicyQueues(fcfsClasses(10, 1));
        q.enqueue(req("spend", 0).cost(2).due(SECOND / 2).build(), 1, free);
        q.enqueue(req("expires", 0).cost(2).due(SECOND).build(), 1, free);
        q.enqueue(req("other", 1).cost(1).build(), 1, free);
        assertEquals("spend", pollAt(q, free, 0));
        assertEquals(8, q.deficit(0));
        assertEquals("other", pollAt(q, free, 2 * SECOND));
        assertEquals(List.of("expires"), expired);
        assertEquals(0, q.deficit(0));
    }
}
