package dev.sluice.core.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.audit.JournalRun;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.journal.JournalContext;
import dev.sluice.core.journal.JournalHeader;
import dev.sluice.core.journal.JournalRecord;
import dev.sluice.core.journal.JournalWriter;
import dev.sluice.core.kv.KvEvent;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.spi.RequestClassifier;
import dev.sluice.core.testing.SteppedRouter;
import dev.sluice.core.testing.TestClocks;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Queue deadlines that pass between two duty cycles expire at the start of the next one, before its inputs: the
 * {@code Retry-After} of each expiry (the class's drain interval times the backlog left) then counts the same backlog
 * live and in a replay. The bug a 60 s demo showed: live, a KV event and then an arrival in one cycle, the expiries
 * swept only when the arrival asked for a dispatch, so they counted the arrival; the replay, which runs the router
 * after every recorded input, swept them after the KV event without it, and ten Retry-After values differed by one
 * backlog step.
 */
class SameInstantExpiryReplayTest {
    private static final String POLICY = """
        default_policy_family: standard
        uncached_isl_buckets: [{min_tokens: 0, bucket: any}]
        policy_classes:
          - {name: only, policy_family: standard, cache_bucket: any, quantum: 1, prefill_busy_threshold_frac: 0.5}
        """;
    private static final long S = 1_000_000_000L;
    private static final long START = TestClocks.START_NS;

    @TempDir
    Path dir;

    @Test
    void shouldExpireQueuedRequestsBeforeTheInstantsInputsAndReplayTheirRetryAfter() throws Exception {
        JournalRun run = record(dir);
        // a1 leaves a2 behind it (one request: 2 s), a2 nothing (at least one interval: 2 s); x came after both.
        assertEquals(List.of(2 * S, 2 * S), retryAfters(run.records()), "live Retry-After of a1, a2");
        DecisionComparison.Result result = ReplayVerifier.verify(run);
        assertEquals(List.of(), result.differences());
    }

    @Test
    void shouldNameTheFieldThatDiffersWithBothValues() throws Exception {
        JournalRun run = record(dir);
        List<JournalRecord> tampered = new ArrayList<>(run.records());
        int at = tampered.indexOf(tampered.stream().filter(r -> r instanceof JournalRecord.Rejected).findFirst()
            .orElseThrow());
        JournalRecord.Rejected original = (JournalRecord.Rejected) tampered.get(at);
        JournalRecord.Error e = original.error();
        tampered.set(at, new JournalRecord.Rejected(original.timeNs(), original.lifecycleId(), original.stage(),
            new JournalRecord.Error(e.errorClass(), e.reason(), e.publicMessage(), e.diagnostic(), e.httpStatus(),
                e.overloadStatus(), 4 * S), original.classIndex()));
        List<Difference> differences = ReplayVerifier.verify(JournalRun.of(1, run.header(), tampered)).differences();
        assertEquals(1, differences.size(), differences.toString());
        Difference difference = differences.get(0);
        assertEquals(List.of(new Difference.Field("error.retryAfterNanos", "4000000000", "2000000000")),
            difference.fields());
        assertEquals("a1", difference.requestId());
        assertEquals("request a1 (lifecycle " + difference.lifecycleId() + "): record #4 (Rejected at +3.000000 s)"
            + " differs in error.retryAfterNanos recorded 4000000000, replayed 2000000000", difference.toString());
    }

    private static JournalRun record(Path dir) throws Exception {
        Map<String, Long> dueAt = Map.of("a1", START + 3 * S, "a2", START + 3 * S, "x", START + 10 * S);
        RequestClassifier budgets = new RequestClassifier() {
            @Override
            public Classification classify(ClassifyRequest request) {
                Long due = dueAt.get(request.requestId());
                if (due != null) {
                    request.setDueAt(due);
                }
                return Classification.admit(request);
            }
        };
        RouterContext context = new RouterContext().model("m").clock(TestClocks.started())
            .profile(RouterPolicyLoader.parse(POLICY, "<inline>").root().orElseThrow());
        try (JournalWriter journal = JournalWriter.open(new JournalContext(dir), JournalHeader.of(context, "<inline>",
            POLICY, "budgets", OptionalDouble.empty(), QueuePolicy.FCFS))) {
            context.observer(journal);
            try (SteppedRouter r = new SteppedRouter(budgets, context).worker(1, 100)) {
                long first = r.submit("r1", 100);
                r.clock.advance(2 * S);
                r.router.completed(first);
                long second = r.submit("r2", 100);
                // The class drained one request per 2 s; a1 and a2 wait behind r2, due at 4 s.
                r.submit("a1", 100);
                r.submit("a2", 100);
                r.clock.advance(S);
                // One duty cycle at 4 s: a KV event, then an arrival that asks for a dispatch.
                r.router.kvEvent(new KvEvent.Removed(WorkerWithDpRank.of(1), 0, new long[] {42}));
                long x = r.router.submit(AdmissionRequest.builder("x").inputTokens(100).build(), r.listener);
                r.step();
                r.router.completed(second);
                r.step();
                r.router.completed(x);
                r.step();
            }
        }
        return JournalRun.read(dir, null).get(0);
    }

    private static List<Long> retryAfters(List<JournalRecord> records) {
        return records.stream().filter(r -> r instanceof JournalRecord.Rejected)
            .map(r -> ((JournalRecord.Rejected) r).error().retryAfterNanos()).toList();
    }
}
