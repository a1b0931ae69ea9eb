package dev.sluice.core.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.audit.JournalRun;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.journal.JournalContext;
import dev.sluice.core.journal.JournalHeader;
import dev.sluice.core.journal.JournalRecord;
import dev.sluice.core.journal.JournalWriter;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.testing.SteppedRouter;
import dev.sluice.core.testing.TestClocks;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A graceful drain is not journaled as an input, only its effects are: requests not yet dispatched end aborted
 * {@code shutting_down}, later arrivals are refused {@code shutting_down}. Replay drains its router where the first
 * of those effects is, so they reproduce; before, each refusal replayed as an arrival the replay classifier had no
 * recording for (a NullPointerException, a difference and a stack trace per request). A journal cut between an
 * arrival and its decision reports that arrival as undecided, not as a difference.
 */
class DrainedJournalReplayTest {
    private static final String POLICY = """
        default_policy_family: standard
        uncached_isl_buckets: [{min_tokens: 0, bucket: any}]
        policy_classes:
          - {name: only, policy_family: standard, cache_bucket: any, quantum: 1, prefill_busy_threshold_frac: 0.5}
        """;
    private static final long S = 1_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void shouldReplayRequestsRefusedAndAbortedByADrainAsTheRecordingDid() throws Exception {
        JournalRun run = recordDrained(dir);
        long refused = run.records().stream().filter(r -> r instanceof JournalRecord.Refused f
            && f.error().reason().equals("shutting_down")).count();
        assertEquals(3, refused, "r3..r5 were refused by the draining router");
        assertTrue(run.records().stream().anyMatch(r -> r instanceof JournalRecord.Aborted a
            && "shutting_down".equals(a.causeMessage())), "r2 was answered shutting_down from its queue");
        DecisionComparison.Result result = ReplayVerifier.verify(run);
        assertEquals(List.of(), result.differences());
        assertEquals(List.of(), result.undecided());
    }

    @Test
    void shouldReportAnArrivalTheJournalEndsBeforeDecidingNotADifference() throws Exception {
        JournalRun whole = recordDrained(dir);
        List<JournalRecord> cut = new ArrayList<>();
        JournalRecord.Arrived last = null;
        for (JournalRecord record : whole.records()) {
            cut.add(record);
            if (record instanceof JournalRecord.Arrived a && a.request().requestId().equals("r2")) {
                last = a;
                break;
            }
        }
        DecisionComparison.Result result = ReplayVerifier.verify(JournalRun.of(1, whole.header(), cut));
        assertEquals(List.of(), result.differences());
        assertEquals(1, result.undecided().size(), result.undecided().toString());
        assertEquals("request r2 (lifecycle " + last.lifecycleId() + "): journal ends before its decision",
            result.undecided().get(0));
    }

    /** r1 runs; r2 waits behind it; the router drains; r3..r5 are refused; r1 completes; the run closes. */
    static JournalRun recordDrained(Path dir) throws Exception {
        RouterContext context = new RouterContext().model("m").clock(TestClocks.started())
            .profile(RouterPolicyLoader.parse(POLICY, "<inline>").root().orElseThrow());
        try (JournalWriter journal = JournalWriter.open(new JournalContext(dir), JournalHeader.of(context, "<inline>",
            POLICY, "none", OptionalDouble.empty(), QueuePolicy.FCFS))) {
            context.observer(journal);
            try (SteppedRouter r = new SteppedRouter(null, context).worker(1, 100)) {
                long first = r.submit("r1", 100);
                r.clock.advance(S);
                r.submit("r2", 100);
                r.clock.advance(S);
                r.router.drain();
                r.step();
                for (int i = 3; i <= 5; i++) {
                    r.clock.advance(S);
                    r.submit("r" + i, 100);
                }
                r.clock.advance(S);
                r.router.responding(first);
                r.router.completed(first, 150);
                r.step();
            }
        }
        return JournalRun.read(dir, null).get(0);
    }
}
