package dev.sluice.core.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.ErrorClass;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.RequestView;
import dev.sluice.core.journal.JournalRecord;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each invariant of {@code journal verify}, broken on purpose, is caught and names the request. */
class JournalVerifierTest {
    private static final JournalRecord.Overrides NONE = new JournalRecord.Overrides(null, ClassifyRequest.NO_DEADLINE,
        0, null);
    private static final JournalRecord.Error DEADLINE = new JournalRecord.Error(ErrorClass.DEADLINE_EXCEEDED,
        "deadline_exceeded", "request deadline exceeded", null, 429, 529, 0);

    private static JournalRecord.Arrived arrived(long id, long t) {
        return new JournalRecord.Arrived(t, id, new JournalRecord.Request("req-" + id, t, 100, null, null, null, null,
            null, null, 0, 0, null), new long[0]);
    }

    /** A well-formed lifecycle: arrived, admitted, enqueued (due at 50), dispatched at 20, responding, completed. */
    private static List<JournalRecord> good(long id) {
        List<JournalRecord> records = new ArrayList<>();
        records.add(arrived(id, 10));
        records.add(new JournalRecord.Classified(10, id, Classification.Kind.ADMIT, NONE));
        records.add(new JournalRecord.Enqueued(10, id, 0, "default", null, null, 0, 100, 0,
            new JournalRecord.Overrides(null, 50, 0, null)));
        records.add(new JournalRecord.Dispatched(20, id, WorkerWithDpRank.of(1)));
        records.add(new JournalRecord.Responding(30, id));
        records.add(new JournalRecord.Completed(40, id, 150));
        return records;
    }

    private static List<JournalVerifier.Violation> verify(List<JournalRecord> records) {
        return JournalVerifier.verify(JournalRun.of(1, null, records));
    }

    private static void assertCaught(List<JournalRecord> records, String invariant) {
        List<JournalVerifier.Violation> violations = verify(records);
        assertEquals(1, violations.size(), violations.toString());
        assertEquals("req-1", violations.get(0).requestId());
        assertTrue(violations.get(0).invariant().contains(invariant), violations.get(0).invariant());
    }

    @Test
    void shouldAcceptWellFormedLifecycles() {
        List<JournalRecord> records = good(1);
        records.addAll(good(2));
        assertEquals(List.of(), verify(records));
    }

    @Test
    void shouldCatchASecondTerminalEvent() {
        List<JournalRecord> records = good(1);
        records.add(new JournalRecord.Aborted(45, 1, RequestView.Stage.RESPONDING, null, null));
        assertCaught(records, "ABORTED after its terminal event");
    }

    @Test
    void shouldCatchALifecycleWithoutTerminalEventInARunThatClosed() {
        List<JournalRecord> records = good(1);
        records.set(records.size() - 1, new JournalRecord.Closed(40));
        assertCaught(records, "no terminal event, though the journal closed cleanly");
    }

    @Test
    void shouldReportALifecycleCutShortByAKillAsUnfinished() {
        List<JournalRecord> records = good(1);
        records.addAll(good(2));
        records.remove(records.size() - 1);
        JournalRun run = JournalRun.of(1, null, records);
        assertFalse(run.closed());
        assertEquals(List.of(), JournalVerifier.verify(run));
        assertEquals(List.of("req-2"), JournalVerifier.unfinished(run).stream().map(Lifecycle::requestId).toList());
        records.add(new JournalRecord.Closed(40));
        assertEquals(List.of(), JournalVerifier.unfinished(JournalRun.of(1, null, records)));
    }

    @Test
    void shouldCatchEventsOutOfOrder() {
        List<JournalRecord> records = good(1);
        records.remove(2);
        assertCaught(records, "DISPATCHED out of order");
    }

    @Test
    void shouldCatchTimeGoingBack() {
        List<JournalRecord> records = good(1);
        records.set(4, new JournalRecord.Responding(15, 1));
        assertCaught(records, "time goes back");
    }

    @Test
    void shouldCatchADispatchAfterTheDeadline() {
        List<JournalRecord> records = good(1);
        records.set(3, new JournalRecord.Dispatched(60, 1, WorkerWithDpRank.of(1)));
        records.set(4, new JournalRecord.Responding(70, 1));
        records.set(5, new JournalRecord.Completed(80, 1, 150));
        assertCaught(records, "after its deadline");
    }

    @Test
    void shouldCatchADispatchAfterTheTerminalEvent() {
        List<JournalRecord> records = good(1).subList(0, 3);
        records = new ArrayList<>(records);
        records.add(new JournalRecord.Rejected(15, 1, RequestView.Stage.QUEUED, DEADLINE, 0));
        records.add(new JournalRecord.Dispatched(20, 1, WorkerWithDpRank.of(1)));
        assertCaught(records, "dispatched after its terminal event");
    }

    @Test
    void shouldReportOnlyTheBrokenLifecycle() {
        List<JournalRecord> records = good(1);
        List<JournalRecord> broken = good(2);
        broken.add(new JournalRecord.Completed(50, 2, 1));
        records.addAll(broken);
        List<JournalVerifier.Violation> violations = verify(records);
        assertEquals(1, violations.size());
        assertEquals("req-2", violations.get(0).requestId());
    }
}
