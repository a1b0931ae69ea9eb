package dev.sluice.core.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.audit.JournalRun;
import dev.sluice.core.config.ConfigException;
import dev.sluice.core.config.PolicyProfile;
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
import dev.sluice.core.testing.SteppedRouter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalDouble;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cache-dependent decisions replay: the journal keeps the engines' KV events and each arrival's prompt block
 * hashes, so the replayed router sees the same cached prefixes, buckets and placements as the live one.
 */
class KvReplayTest {
    private static final String POLICY = """
        default_policy_family: standard
        uncached_isl_buckets: [{min_tokens: 0, bucket: cached}, {min_tokens: 32, bucket: uncached}]
        policy_classes:
          - {name: cached, policy_family: standard, cache_bucket: cached, quantum: 1}
          - {name: uncached, policy_family: standard, cache_bucket: uncached, quantum: 1}
        """;

    @TempDir
    Path dir;

    @Test
    void shouldReplayCacheDependentBucketsAndPlacement() throws Exception {
        record(dir);
        List<JournalRun> runs = JournalRun.read(dir, null);
        JournalRun run = runs.get(0);
        assertTrue(run.records().stream().anyMatch(r -> r instanceof JournalRecord.Enqueued e && e.cachedTokens() > 0
            && e.policyClass().equals("cached")), "the live run saw a cached prefix");
        DecisionComparison.Result result = ReplayVerifier.verify(run);
        assertEquals(List.of(), result.differences());
        assertEquals(4, result.dispatches());
    }

    private static void record(Path dir) throws Exception {
        BlockHasher hasher = new BlockHasher(16);
        PolicyProfile profile = profile();
        // The header's time must be on the stepped router's clock, which starts where a new test clock does.
        RouterContext context = new RouterContext().model("m").profile(profile)
            .clock(dev.sluice.core.testing.TestClocks.started());
        try (JournalWriter journal = JournalWriter.open(new JournalContext(dir), JournalHeader.of(context, "<inline>",
            POLICY, "default", OptionalDouble.empty(), QueuePolicy.FCFS))) {
            context.observer(journal);
            try (SteppedRouter r = new SteppedRouter(null, context).worker(1, 8192).worker(2, 8192)) {
                int[] system = IntStream.range(0, 64).toArray();
                long[] local = Arrays.copyOf(hasher.localHashes(system), 4);
                r.router.kvEvent(new KvEvent.Stored(WorkerWithDpRank.of(2), 0, false, KvEvent.NO_PARENT,
                    BlockHasher.sequenceHashes(local), local));
                r.step();
                r.submit(AdmissionRequest.builder("hit").promptTokens(IntStream.range(0, 70).toArray(), hasher)
                    .build());
                r.submit(AdmissionRequest.builder("miss").promptTokens(IntStream.range(500, 570).toArray(), hasher)
                    .build());
                r.router.kvEvent(new KvEvent.Removed(WorkerWithDpRank.of(2), 1, new long[] {
                    BlockHasher.sequenceHashes(local)[3]}));
                r.step();
                r.submit(AdmissionRequest.builder("partial").promptTokens(IntStream.range(0, 70).toArray(), hasher)
                    .build());
                r.submit(AdmissionRequest.builder("plain").inputTokens(10).build());
            }
        }
    }

    private static PolicyProfile profile() throws ConfigException {
        return RouterPolicyLoader.parse(POLICY, "<inline>").root().orElseThrow();
    }
}
