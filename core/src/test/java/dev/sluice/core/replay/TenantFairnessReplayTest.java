package dev.sluice.core.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.core.audit.JournalRun;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.config.RouterPolicyConfig;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.journal.JournalContext;
import dev.sluice.core.journal.JournalHeader;
import dev.sluice.core.journal.JournalWriter;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.testing.RecordingListener;
import dev.sluice.core.testing.SteppedRouter;
import dev.sluice.core.testing.TestClocks;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tenant fairness on the scheduler: with {@code tenant_fairness: vtc} a light tenant's requests are dispatched
 * between a heavy tenant's backlog instead of after it, generated tokens count, and the journal of such a run replays
 * decision for decision.
 */
class TenantFairnessReplayTest {
    private static final String POLICY = """
        default_policy_family: standard
        uncached_isl_buckets:
          - min_tokens: 0
            bucket: all
        policy_classes:
          - name: shared
            policy_family: standard
            cache_bucket: all
            quantum: 100000
            prefill_busy_threshold: 0
            tenant_fairness: %s
        """;

    @TempDir
    Path dir;

    @Test
    void shouldServeTheHeavyTenantsBacklogFirstWithoutFairness() throws Exception {
        assertEquals(List.of("h0", "h1", "h2", "h3", "h4", "l0", "l1"), run("none", dir.resolve("none")));
    }

    @Test
    void shouldInterleaveALightTenantIntoAHeavyBacklogAndReplayIt() throws Exception {
        Path journal = dir.resolve("vtc");
        // h0 was charged its prompt when it went; light comes in lifted level with heavy, and wins the tie with
        // nothing in service (heavy has h0), so l0 goes at h0's first token. Then h0's long output (charged at
        // completion, output weight 2) puts heavy behind, and light's backlog goes before heavy's.
        assertEquals(List.of("h0", "l0", "l1", "h1", "h2", "h3", "h4"), run("vtc", journal));
        JournalRun recorded = JournalRun.read(journal, null).get(0);
        DecisionComparison.Result result = ReplayVerifier.verify(recorded);
        assertEquals(List.of(), result.differences());
        assertEquals(7, result.dispatches());
    }

    /** One worker busy while a prefill runs: each dispatch waits for the previous request's first token. */
    private List<String> run(String fairness, Path journalDir) throws Exception {
        String text = POLICY.formatted(fairness);
        RouterPolicyConfig config = RouterPolicyLoader.parse(text, "fair.yaml");
        RouterContext context = new RouterContext().model("m").clock(TestClocks.started())
            .profile(config.profileFor("m", OptionalDouble.empty(), QueuePolicy.FCFS));
        Map<Long, String> names = new HashMap<>();
        List<String> order = new ArrayList<>();
        try (JournalWriter journal = JournalWriter.open(new JournalContext(journalDir), JournalHeader.of(context,
            "fair.yaml", text, "default", OptionalDouble.empty(), QueuePolicy.FCFS))) {
            context.observer(journal);
            try (SteppedRouter r = new SteppedRouter(null, context).worker(1, 8192)) {
                for (int i = 0; i < 5; i++) {
                    names.put(r.submit(request("h" + i, "heavy")), "h" + i);
                }
                names.put(r.submit(request("l0", "light")), "l0");
                names.put(r.submit(request("l1", "light")), "l1");
                RecordingListener listener = r.listener;
                for (int served = 0; served < names.size(); served++) {
                    RecordingListener.Outcome next = listener.inOrder().get(served);
                    String name = names.get(next.lifecycleId());
                    order.add(name);
                    r.router.responding(next.lifecycleId());
                    r.router.completed(next.lifecycleId(), 100 + (name.startsWith("h") ? 400 : 10));
                    r.step();
                }
            }
        }
        return order;
    }

    private static AdmissionRequest request(String id, String tenant) {
        return AdmissionRequest.builder(id).inputTokens(100).tenant(tenant).build();
    }
}
