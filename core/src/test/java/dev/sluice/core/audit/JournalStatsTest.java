package dev.sluice.core.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.ErrorClass;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.host.RequestView;
import dev.sluice.core.journal.JournalHeader;
import dev.sluice.core.journal.JournalRecord;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code journal stats} counts each request once, in the class {@link RequestFigures} defines, with its figures. */
class JournalStatsTest {
    private static final String POLICY = """
        default_policy_family: interactive
        uncached_isl_buckets:
          - min_tokens: 0
            bucket: short
        policy_classes:
          - name: chat
            policy_family: interactive
            cache_bucket: short
            queue_policy: fcfs
            quantum: 1024
            prefill_busy_threshold_frac: 1.0
          - name: batch
            policy_family: batch
            cache_bucket: short
            queue_policy: fcfs
            quantum: 1024
            prefill_busy_threshold_frac: 1.0
            request_queue_limit_per_worker: 1
        """;
    private static final JournalRecord.Overrides NONE = new JournalRecord.Overrides(null, ClassifyRequest.NO_DEADLINE,
        0, null);
    private static final long MS = 1_000_000L;

    private static JournalRecord.Error error(String reason, int status) {
        return new JournalRecord.Error(ErrorClass.CAPACITY_EXHAUSTED, reason, "no", null, status, 529, 0);
    }

    private static JournalRecord.Arrived arrived(long id, long t) {
        return new JournalRecord.Arrived(t, id, new JournalRecord.Request("req-" + id, t, 100, null, null, null, null,
            null, null, 0, 0, null), new long[0]);
    }

    private static JournalRecord.Enqueued enqueued(long id, long t, int classIndex, String name) {
        return new JournalRecord.Enqueued(t, id, classIndex, name, "interactive", null, 0, 100, 0, NONE);
    }

    private static JournalRun run() {
        JournalRecord.Header header = new JournalRecord.Header(0, 1, 0, "m", "test.yaml", POLICY,
            JournalHeader.hex(JournalHeader.sha256(POLICY)), "test", 529, 100, 100, 16, Double.NaN, QueuePolicy.FCFS);
        List<JournalRecord> records = new ArrayList<>();
        // 1: deferred once, then queued in chat 10 ms, first item at 40 ms (a non-streaming call), completed at 900.
        records.add(arrived(1, 0));
        records.add(new JournalRecord.Classified(0, 1, Classification.Kind.DEFER, NONE));
        records.add(new JournalRecord.Classified(5 * MS, 1, Classification.Kind.ADMIT, NONE));
        records.add(enqueued(1, 10 * MS, 0, "chat"));
        records.add(new JournalRecord.Dispatched(20 * MS, 1, WorkerWithDpRank.of(1)));
        records.add(new JournalRecord.Responding(40 * MS, 1));
        records.add(new JournalRecord.Completed(900 * MS, 1, 10));
        // 2: queued in chat, rejected there for its deadline: queued, never admitted.
        records.add(arrived(2, 0));
        records.add(new JournalRecord.Classified(0, 2, Classification.Kind.ADMIT, NONE));
        records.add(enqueued(2, 0, 0, "chat"));
        records.add(new JournalRecord.Rejected(50 * MS, 2, RequestView.Stage.QUEUED, error("deadline_exceeded", 429),
            0));
        // 3: turned away by batch's queue limit; no request ever joined batch, so its name comes from the policy.
        records.add(arrived(3, 0));
        records.add(new JournalRecord.Classified(0, 3, Classification.Kind.ADMIT, NONE));
        records.add(new JournalRecord.Rejected(0, 3, RequestView.Stage.CLASSIFYING, error("queue_rejected", 529), 1));
        // 4: rejected by the classifier, 5: refused at arrival: neither reached a class.
        records.add(arrived(4, 0));
        records.add(new JournalRecord.Rejected(0, 4, RequestView.Stage.CLASSIFYING, error("tenant_quota", 429), -1));
        records.add(new JournalRecord.Refused(0, 5, new JournalRecord.Request("req-5", 0, 100, null, null, null, null,
            null, null, 0, 0, null), error("too_many_live_requests", 529)));
        return JournalRun.of(1, header, records);
    }

    @Test
    void shouldCountEachRequestInTheClassItWasQueuedInOrTurnedAwayFrom() {
        JournalStats stats = new JournalStats().add(run());
        Map<String, RequestFigures.ClassFigures> byClass = stats.byClass();
        assertEquals(List.of("batch", "chat", RequestFigures.NO_CLASS), List.copyOf(byClass.keySet()));
        RequestFigures.ClassFigures chat = byClass.get("chat");
        assertEquals(2, chat.arrived());
        assertEquals(2, chat.queued());
        assertEquals(1, chat.admitted(), "queued then rejected for its deadline is not admitted");
        assertEquals(1, chat.deferred());
        assertEquals(1, chat.count(RequestFigures.Outcome.COMPLETED));
        assertEquals(Map.of("deadline_exceeded (429)", 1L), chat.rejections());
        assertEquals(Map.of("queue_rejected (529)", 1L), byClass.get("batch").rejections());
        assertEquals(0, byClass.get("batch").queued());
        RequestFigures.ClassFigures none = byClass.get(RequestFigures.NO_CLASS);
        assertEquals(2, none.count(RequestFigures.Outcome.REJECTED), "refused counts as rejected");
        assertEquals(4, stats.total().count(RequestFigures.Outcome.REJECTED));
    }

    @Test
    void shouldMeasureQueueWaitFromEnqueueAndTtftToTheFirstItemNotTheWholeResponse() {
        RequestFigures.ClassFigures chat = new JournalStats().add(run()).byClass().get("chat");
        assertEquals(1, chat.queueWaitUs().getTotalCount());
        assertEquals(10.0, chat.queueWaitUs().getMaxValue() / 1000.0, 0.01);
        assertEquals(40.0, chat.ttftUs().getMaxValue() / 1000.0, 0.05, "ingress to the first item, not 900 ms");
    }

    @Test
    void shouldPrintTheFiguresWithTheirDefinitions() {
        StringWriter text = new StringWriter();
        new JournalStats().add(run()).print(new PrintWriter(text));
        String out = text.toString();
        assertTrue(out.contains("5 lifecycles"), out);
        assertTrue(out.contains("queue_rejected (529)") && out.contains("batch=1"), out);
        assertTrue(out.contains("admitted: dispatched to a worker") && out.contains("TTFT: ingress"), out);
        assertTrue(out.lines().anyMatch(l -> l.matches("all +5 +2 +1 +1 +0 +1 +4 +0 +0")), out);
    }
}
