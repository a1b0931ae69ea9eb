package dev.sluice.core.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.audit.JournalRun;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.host.AdmissionListener;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.journal.JournalContext;
import dev.sluice.core.journal.JournalHeader;
import dev.sluice.core.journal.JournalRecord;
import dev.sluice.core.journal.JournalWriter;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.testing.PreemptionHost;
import dev.sluice.core.testing.SteppedRouter;
import dev.sluice.core.testing.TestClocks;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run with preemptions replays: the journal shows each as the victim's Aborted with cause {@code preempted}, and
 * {@code replay --verify} reproduces who was preempted for whom, including a victim the live host refused because
 * its response had begun.
 */
class PreemptionReplayTest {
    private static final String POLICY = """
        default_policy_family: bulk
        uncached_isl_buckets: [{min_tokens: 0, bucket: all}]
        policy_classes:
          - {name: interactive, policy_family: interactive, cache_bucket: all, quantum: 1,
             prefill_busy_threshold: 0, preemption_priority: 1}
          - {name: bulk, policy_family: bulk, cache_bucket: all, quantum: 1, prefill_busy_threshold: 0,
             preemptible: true}
        """;

    @TempDir
    Path dir;

    @Test
    void shouldReproduceARunWithPreemptions() throws Exception {
        PolicyProfile profile = RouterPolicyLoader.parse(POLICY, "policy.yaml").root().orElseThrow();
        RouterContext context = new RouterContext().model("m").clock(TestClocks.started()).profile(profile);
        PreemptionHost host = new PreemptionHost();
        try (JournalWriter journal = JournalWriter.open(new JournalContext(dir), JournalHeader.of(context,
            "policy.yaml", POLICY, "bulk", OptionalDouble.empty(), QueuePolicy.FCFS))) {
            context.observer(journal);
            try (SteppedRouter r = new SteppedRouter(null, context).worker(1, 8192).worker(2, 8192)) {
                long a = submit(r, host, "bulk-a", "bulk");
                long b = submit(r, host, "bulk-b", "bulk");
                host.streaming.add(b);
                long first = submit(r, host, "hi-1", "interactive");
                assertTrue(host.preempted.containsKey(a) && !host.preempted.containsKey(b));
                r.router.responding(b);
                r.router.completed(b);
                r.step();
                long c = submit(r, host, "bulk-c", "bulk");
                long second = submit(r, host, "hi-2", "interactive");
                assertTrue(host.preempted.containsKey(c));
                for (long id : List.of(first, second)) {
                    r.router.completed(id);
                }
                r.step();
            }
        }
        JournalRun run = JournalRun.read(dir, null).get(0);
        long preemptions = run.records().stream().filter(rec -> rec instanceof JournalRecord.Aborted x
            && RecordedInputs.preempted(x)).count();
        assertEquals(2, preemptions);
        DecisionComparison.Result result = ReplayVerifier.verify(run);
        assertEquals(List.of(), result.differences());
        assertEquals(5, result.dispatches());
        assertFalse(run.records().isEmpty());
    }

    private static long submit(SteppedRouter r, AdmissionListener host, String id, String policyClass) {
        long lifecycle = r.router.submit(AdmissionRequest.builder(id).inputTokens(100).policyClass(policyClass)
            .build(), host);
        r.step();
        return lifecycle;
    }
}
