package dev.sluice.core.journal;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ErrorClass;
import dev.sluice.core.api.SessionContext;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.testing.RecordingClassifier;
import dev.sluice.core.testing.SteppedRouter;
import java.time.Duration;
import java.util.OptionalLong;

/** A header and a scenario that makes the router emit every record type. */
final class JournalFixtures {
    static final String POLICY = "# test policy\ndefault_policy_family: interactive\n";
    static final AdmissionError RATE_LIMITED = AdmissionError.of(ErrorClass.RATE_LIMITED).reason("tenant_quota")
        .publicMessage("Tenant quota exhausted").diagnostic("tenant acme used 100 of 100").retryAfter(
            Duration.ofSeconds(3));

    private JournalFixtures() {
    }

    static JournalHeader header(long schedulerNs) {
        return new JournalHeader("llama", "test.yaml", POLICY, "recording", 529, 1 << 16, 100_000, 16, Double.NaN,
            QueuePolicy.FCFS, schedulerNs);
    }

    /** A classifier that admits with overrides, rejects "b-*", and admits the rest unchanged. */
    static RecordingClassifier classifier() {
        return new RecordingClassifier().deciding(request -> {
            if (request.requestId().startsWith("b-")) {
                return Classification.reject(RATE_LIMITED);
            }
            if (request.requestId().startsWith("a-")) {
                request.setDueAt(request.ingressAt() + 5_000_000_000L);
                request.setSchedulingCostTokens(77);
                request.setWorkerSelectionTarget(WorkerWithDpRank.of(2));
            }
            return Classification.admit(request);
        });
    }

    /** A stepped router on a manual clock whose observer is {@code journal}. */
    static SteppedRouter router(JournalWriter journal) {
        return new SteppedRouter(classifier(), new RouterContext().model("llama").observer(journal));
    }

    /**
     * Runs the scenario: two workers join, a-1 (session, tenant, priority) completes, b-1 is rejected, d-1 is
     * refused as a duplicate of the live d-1 and then aborted, e-1 is retried and completes, worker 2 leaves, and the
     * policy is reloaded.
     */
    static void scenario(SteppedRouter r) {
        r.router.workerJoined(WorkerWithDpRank.of(1), 2048, OptionalLong.of(4096));
        r.router.workerJoined(new WorkerWithDpRank(2, 1), 1024, OptionalLong.empty());
        r.step();
        r.router.kvEvent(new dev.sluice.core.kv.KvEvent.Stored(WorkerWithDpRank.of(1), 0, true, 77L,
            new long[] {11L, 12L}, new long[] {21L, 22L}));
        r.router.kvEvent(new dev.sluice.core.kv.KvEvent.Removed(WorkerWithDpRank.of(1), 1, new long[] {12L}));
        r.router.kvEvent(new dev.sluice.core.kv.KvEvent.Cleared(new WorkerWithDpRank(2, 1), 0));
        // An idle report: recorded as an input, and changes no placement below.
        r.router.workerLoad(new dev.sluice.core.host.WorkerLoad(WorkerWithDpRank.of(1), 0, 0, 0));
        r.step();
        long a = r.submit(AdmissionRequest.builder("a-1").clientRequestId("client-a").inputTokens(300).tenant("acme")
            .policyClass("interactive")
            .sessionContext(new SessionContext("s-1", "s-0", SessionContext.Finality.FINAL,
                SessionContext.InputTrigger.TOOL_RESULT))
            .strictPriority(2).priorityJump(1.5).build());
        r.advance(Duration.ofMillis(5));
        r.router.responding(a);
        r.step();
        r.router.completed(a, 420);
        r.step();
        r.submit("b-1", 100);
        long d = r.submit("d-1", 50);
        r.submit(AdmissionRequest.builder("d-1").clientRequestId("client-d").inputTokens(50).build());
        r.router.aborted(d, new java.util.concurrent.CancellationException("client left"));
        r.step();
        long e = r.submit("e-1", 60);
        r.router.retry(e);
        r.step();
        r.router.completed(e);
        r.step();
        r.router.workerLeft(new WorkerWithDpRank(2, 1));
        r.step();
        try {
            r.router.reloadPolicy("reloaded.yaml", RELOADED, dev.sluice.core.config.RouterPolicyLoader.parse(RELOADED,
                "reloaded.yaml").root().orElseThrow());
        } catch (dev.sluice.core.config.ConfigException ex) {
            throw new AssertionError(ex);
        }
        r.step();
    }

    /** The policy the scenario reloads at its end. */
    static final String RELOADED = """
        default_policy_family: standard
        uncached_isl_buckets: [{min_tokens: 0, bucket: any}]
        policy_classes:
          - {name: standard, policy_family: standard, cache_bucket: any, quantum: 1}
        """;
}
