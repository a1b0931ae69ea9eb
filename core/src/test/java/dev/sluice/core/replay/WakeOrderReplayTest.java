package dev.sluice.core.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.Wakeup;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.audit.JournalRun;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.journal.JournalContext;
import dev.sluice.core.journal.JournalHeader;
import dev.sluice.core.journal.JournalRecord;
import dev.sluice.core.journal.JournalWriter;
import dev.sluice.core.kv.BlockHasher;
import dev.sluice.core.kv.KvEvent;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.spi.RequestClassifier;
import dev.sluice.core.testing.TestClocks;
import dev.sluice.core.testing.SteppedRouter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A parked request woken in the same instant as other inputs replays at its place among them: the live router took
 * two KV events and then the wake-up in one duty cycle, so the woken request saw both events' blocks; a replay that
 * woke it at the instant's first input saw only the first event (the bug a 60 s demo showed: hundreds of
 * differences after the first such turn).
 */
class WakeOrderReplayTest {
    private static final String POLICY = """
        default_policy_family: standard
        uncached_isl_buckets: [{min_tokens: 0, bucket: cached}, {min_tokens: 40, bucket: uncached}]
        policy_classes:
          - {name: cached, policy_family: standard, cache_bucket: cached, quantum: 1}
          - {name: uncached, policy_family: standard, cache_bucket: uncached, quantum: 1}
        """;

    @TempDir
    Path dir;

    @Test
    void shouldWakeAParkedReplayAtItsPositionInTheInstant() throws Exception {
        BlockHasher hasher = new BlockHasher(16);
        int[] prompt = IntStream.range(0, 70).toArray();
        long[] local = Arrays.copyOf(hasher.localHashes(prompt), 4);
        long[] sequence = BlockHasher.sequenceHashes(local);
        AtomicReference<Wakeup> wakeup = new AtomicReference<>();
        RequestClassifier parksFirst = new RequestClassifier() {
            @Override
            public Classification classify(ClassifyRequest request) {
                wakeup.set(request.wakeup());
                return Classification.park(request, ClassifyRequest.NO_DEADLINE, null);
            }
        };
        RouterContext context = new RouterContext().model("m").clock(TestClocks.started())
            .profile(RouterPolicyLoader.parse(POLICY, "<inline>").root().orElseThrow());
        try (JournalWriter journal = JournalWriter.open(new JournalContext(dir), JournalHeader.of(context, "<inline>",
            POLICY, "parks-first", OptionalDouble.empty(), QueuePolicy.FCFS))) {
            context.observer(journal);
            try (SteppedRouter r = new SteppedRouter(parksFirst, context).worker(1, 8192)) {
                r.submit(AdmissionRequest.builder("turn").promptTokens(prompt, hasher).build());
                r.clock.advance(java.time.Duration.ofMillis(5).toNanos());
                // One instant: two KV events, then the wake-up; the scheduler takes the ring before its inbox.
                r.router.kvEvent(new KvEvent.Stored(WorkerWithDpRank.of(1), 0, false, KvEvent.NO_PARENT,
                    Arrays.copyOf(sequence, 2), Arrays.copyOf(local, 2)));
                r.router.kvEvent(new KvEvent.Stored(WorkerWithDpRank.of(1), 1, true, sequence[1],
                    Arrays.copyOfRange(sequence, 2, 4), Arrays.copyOfRange(local, 2, 4)));
                wakeup.get().admit();
                r.step();
            }
        }
        JournalRun run = JournalRun.read(dir, null).get(0);
        assertTrue(run.records().stream().anyMatch(rec -> rec instanceof JournalRecord.Enqueued e
            && e.cachedTokens() == 64 && e.policyClass().equals("cached")), "live: both events before the wake-up");
        DecisionComparison.Result result = ReplayVerifier.verify(run);
        assertEquals(List.of(), result.differences());
        assertEquals(1, result.dispatches());
    }
}
