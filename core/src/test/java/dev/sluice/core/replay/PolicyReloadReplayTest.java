package dev.sluice.core.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.audit.JournalRun;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.host.AdmissionRequest;
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
 * A run with a policy reload in the middle of a backlog: the journal records the swap with its policy text, and
 * {@code replay --verify} applies it at the same point, so every later decision (the moved requests' dispatch order,
 * a class gone) is reproduced; a journal whose reload is tampered with is caught.
 */
class PolicyReloadReplayTest {
    private static final String BEFORE = """
        default_policy_family: standard
        uncached_isl_buckets: [{min_tokens: 0, bucket: any}]
        policy_classes:
          - {name: standard, policy_family: standard, cache_bucket: any, quantum: 100, prefill_busy_threshold: 0}
          - {name: bulk, policy_family: bulk, cache_bucket: any, quantum: 100, prefill_busy_threshold: 0}
        """;
    private static final String AFTER = """
        default_policy_family: standard
        uncached_isl_buckets: [{min_tokens: 0, bucket: any}]
        policy_classes:
          - {name: premium, quantum: 100, prefill_busy_threshold: 0, queue_policy: wspt}
          - {name: standard, policy_family: standard, cache_bucket: any, quantum: 300, prefill_busy_threshold: 0}
        """;
    private static final long S = 1_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void shouldJournalTheSwapAndReplayItAtTheSamePoint() throws Exception {
        JournalRun run = record(dir);
        List<JournalRecord.PolicyReloaded> reloads = run.records().stream()
            .filter(JournalRecord.PolicyReloaded.class::isInstance).map(JournalRecord.PolicyReloaded.class::cast)
            .toList();
        assertEquals(1, reloads.size());
        JournalRecord.PolicyReloaded reload = reloads.get(0);
        assertEquals("after.yaml", reload.policySource());
        assertEquals(AFTER, reload.policyText());
        assertEquals(JournalHeader.hex(JournalHeader.sha256(AFTER)), reload.fingerprint());
        assertEquals(4, reload.requeued());
        assertEquals(2, reload.reassigned(), "the two bulk requests lost their class");

        DecisionComparison.Result result = ReplayVerifier.verify(run);
        assertEquals(List.of(), result.differences());

        // The audit names a class index by the policy in force when the record was written.
        assertEquals("bulk", run.className(1, reload.timeNs()));
        assertEquals("standard", run.className(1, reload.timeNs() + 1));
        assertEquals("premium", run.className(0, reload.timeNs() + 1));
    }

    @Test
    void shouldReportAReplayedSwapThatDiffersFromTheRecordedOne() throws Exception {
        JournalRun run = record(dir);
        List<JournalRecord> tampered = new ArrayList<>(run.records());
        for (int i = 0; i < tampered.size(); i++) {
            if (tampered.get(i) instanceof JournalRecord.PolicyReloaded p) {
                tampered.set(i, new JournalRecord.PolicyReloaded(p.timeNs(), p.policySource(), p.policyText(),
                    p.fingerprint(), p.classifierReplaced(), p.requeued(), p.reassigned() + 1));
            }
        }
        List<Difference> differences = ReplayVerifier.verify(JournalRun.of(1, run.header(), tampered)).differences();
        assertFalse(differences.isEmpty());
        assertTrue(differences.get(0).toString().contains("reassigned"), differences.toString());
    }

    private static JournalRun record(Path dir) throws Exception {
        RouterContext context = new RouterContext().model("m").clock(TestClocks.started())
            .profile(RouterPolicyLoader.parse(BEFORE, "<inline>").root().orElseThrow());
        try (JournalWriter journal = JournalWriter.open(new JournalContext(dir), JournalHeader.of(context,
            "before.yaml", BEFORE, "default", OptionalDouble.empty(), QueuePolicy.FCFS))) {
            context.observer(journal);
            try (SteppedRouter r = new SteppedRouter(null, context).worker(1, 1000)) {
                List<Long> ids = new ArrayList<>();
                ids.add(r.submit(request("running", "standard", 100)));
                ids.add(r.submit(request("s1", "standard", 400)));
                ids.add(r.submit(request("b1", "bulk", 50)));
                ids.add(r.submit(request("s2", "standard", 300)));
                ids.add(r.submit(request("b2", "bulk", 200)));
                r.clock.advance(S);
                r.router.reloadPolicy("after.yaml", AFTER,
                    RouterPolicyLoader.parse(AFTER, "after.yaml").root().orElseThrow());
                r.step();
                ids.add(r.submit(request("p1", "premium", 100)));
                for (int round = 0; round < 8; round++) {
                    r.clock.advance(S);
                    for (long id : ids) {
                        if (r.listener.has(id) && r.listener.outcome(id).dispatched()) {
                            r.router.responding(id);
                            r.router.completed(id);
                        }
                    }
                    r.step();
                }
                assertEquals(0, r.router.stats().live());
            }
        }
        return JournalRun.read(dir, null).get(0);
    }

    private static AdmissionRequest request(String id, String policyClass, long tokens) {
        return AdmissionRequest.builder(id).inputTokens(tokens).policyClass(policyClass).build();
    }
}
