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
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run with preemptions inside a tenant-fair class ({@code vtc: preempt_over_served: true}) replays: the journal
 * shows each as the over-served tenant's Aborted with cause {@code preempted}, and {@code replay --verify} reproduces
 * which heavy request each light one took the worker of, including a victim the live host refused.
 */
class OverServedPreemptionReplayTest {
    private static final String POLICY = """
        default_policy_family: shared
        uncached_isl_buckets: [{min_tokens: 0, bucket: all}]
        policy_classes:
          - {name: shared, policy_family: shared, cache_bucket: all, quantum: 1, prefill_busy_threshold: 0,
             tenant_fairness: vtc, vtc: {preempt_over_served: true}}
        """;

    @TempDir
    Path dir;

    @Test
    void shouldReproduceARunWithPreemptionsOfAnOverServedTenant() throws Exception {
        PolicyProfile profile = RouterPolicyLoader.parse(POLICY, "policy.yaml").root().orElseThrow();
        RouterContext context = new RouterContext().model("m").clock(TestClocks.started()).profile(profile);
        PreemptionHost host = new PreemptionHost();
        try (JournalWriter journal = JournalWriter.open(new JournalContext(dir), JournalHeader.of(context,
            "policy.yaml", POLICY, "shared", OptionalDouble.empty(), QueuePolicy.FCFS))) {
            context.observer(journal);
            try (SteppedRouter r = new SteppedRouter(null, context).worker(1, 8192).worker(2, 8192)
                .worker(3, 8192)) {
                long h1 = submit(r, host, "h1", "heavy");
                long h2 = submit(r, host, "h2", "heavy");
                long h3 = submit(r, host, "h3", "heavy");
                long h4 = submit(r, host, "h4", "heavy");
                host.streaming.add(h3);
                long a = submit(r, host, "a1", "light-a");
                assertTrue(host.preempted.containsKey(h2) && !host.preempted.containsKey(h3));
                r.router.responding(h3);
                r.router.completed(h3);
                r.step();
                long h5 = submit(r, host, "h5", "heavy");
                long b = submit(r, host, "b1", "light-b");
                // h4 took h3's worker; heavy holds two again, b1 none: the youngest, h4, goes.
                assertEquals(Set.of(h2, h4), host.preempted.keySet());
                for (long id : List.of(h1, a, b)) {
                    r.router.completed(id);
                }
                r.step();
                r.router.completed(h5);
                r.step();
            }
        }
        JournalRun run = JournalRun.read(dir, null).get(0);
        long preemptions = run.records().stream().filter(rec -> rec instanceof JournalRecord.Aborted x
            && RecordedInputs.preempted(x)).count();
        assertEquals(2, preemptions);
        DecisionComparison.Result result = ReplayVerifier.verify(run);
        assertEquals(List.of(), result.differences());
        assertEquals(7, result.dispatches());
    }

    private static long submit(SteppedRouter r, AdmissionListener host, String id, String tenant) {
        long lifecycle = r.router.submit(AdmissionRequest.builder(id).inputTokens(100).tenant(tenant).build(), host);
        r.step();
        return lifecycle;
    }
}
