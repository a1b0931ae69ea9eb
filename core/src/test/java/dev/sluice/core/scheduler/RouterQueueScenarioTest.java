package dev.sluice.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.ConfigException;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.testing.RecordingClassifier;
import dev.sluice.core.testing.SteppedRouter;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * Dynamo's scheduler-queue scenarios (dynamo-tests.md §5.3, newest "arrivals drain the backlog in their own turn"
 * variant) through the router. "Complete" is the first response item ({@code responding}), "free" the terminal.
 */
class RouterQueueScenarioTest {
    private static final String TWO_CLASSES = """
        default_policy_family: latency
        uncached_isl_buckets:
          - {min_tokens: 0, bucket: all}
        policy_classes:
          - {name: latency, policy_family: latency, cache_bucket: all, quantum: 1, prefill_busy_threshold: %d}
          - {name: bulk, policy_family: bulk, cache_bucket: all, quantum: 1, prefill_busy_threshold: %d}
        """;

    private static PolicyProfile profile(String yaml) throws ConfigException {
        return RouterPolicyLoader.parse(yaml, "<inline>").root().orElseThrow();
    }

    private static AdmissionRequest request(String id, long tokens, String policyClass) {
        return AdmissionRequest.builder(id).inputTokens(tokens).policyClass(policyClass).build();
    }

    private static SteppedRouter queueing(int workers) {
        SteppedRouter r = SteppedRouter.withProfile(null, PolicyProfile.synthetic(OptionalDouble.of(0.0),
            QueuePolicy.FCFS));
        for (int w = 0; w < workers; w++) {
            r.worker(w, 512);
        }
        return r;
    }

    @Test
    void shouldDrainAllQueuedRequestsAsCapacityFrees() {
        try (SteppedRouter r = queueing(2)) {
            long[] ids = new long[10];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = r.submit("req-" + i, 512);
            }
            assertEquals(8, r.router.stats().queued());
            for (int round = 0; round < 10; round++) {
                for (long id : ids) {
                    if (r.listener.has(id) && r.listener.outcome(id).dispatched()) {
                        r.router.responding(id);
                        r.router.completed(id);
                    }
                }
                r.step();
            }
            for (long id : ids) {
                assertTrue(r.listener.outcome(id).dispatched());
            }
            assertEquals(0, r.router.stats().queued());
            assertEquals(0, r.router.stats().live());
        }
    }

    @Test
    void shouldCountPendingRequestsAndDrainThemInOrder() {
        try (SteppedRouter r = queueing(1)) {
            long first = r.submit("req-1", 512);
            assertEquals(0, r.router.stats().queued());
            long second = r.submit("req-2", 512);
            long third = r.submit("req-3", 512);
            assertEquals(2, r.router.stats().queued());

            r.router.responding(first);
            r.step();
            assertTrue(r.listener.outcome(second).dispatched());
            assertFalse(r.listener.has(third));
            r.router.responding(second);
            r.step();
            assertEquals(0, r.router.stats().queued());
        }
    }

    @Test
    void shouldDrainStrictPriorityBeforeThePolicyScore() {
        try (SteppedRouter r = queueing(1)) {
            long first = r.submit("first", 64);
            long low = r.submit(AdmissionRequest.builder("low").inputTokens(64).priorityJump(10_000).build());
            long high = r.submit(AdmissionRequest.builder("high").inputTokens(64).strictPriority(1).build());
            assertEquals(2, r.router.stats().queued());

            r.router.completed(first);
            r.step();
            assertEquals(WorkerWithDpRank.of(0), r.listener.outcome(high).worker());
            assertFalse(r.listener.has(low));
            r.router.completed(high);
            r.step();
            assertTrue(r.listener.outcome(low).dispatched());
        }
    }

    @Test
    void shouldNotBookACancelledPendingRequest() {
        try (SteppedRouter r = queueing(1)) {
            long first = r.submit("first", 512);
            long cancelled = r.submit("cancelled", 512);
            r.router.aborted(cancelled, null);
            r.step();
            assertEquals(0, r.router.stats().queued());
            r.router.completed(first);
            r.step();

            assertEquals("cancelled", r.listener.outcome(cancelled).error().reason());
            assertEquals(1, r.router.stats().dispatched());
            assertEquals(0, r.router.stats().live());
        }
    }

    @Test
    void shouldApplyIndependentThresholdsAndPreserveBacklogOrder() throws ConfigException {
        try (SteppedRouter r = SteppedRouter.withProfile(null, profile(TWO_CLASSES.formatted(0, 1024)))
            .worker(0, 64)) {
            long active = r.submit(request("active", 64, "latency"));
            long bulk = r.submit(request("bulk", 64, "bulk"));
            long queuedFirst = r.submit(request("queued-first", 64, "latency"));
            assertTrue(r.listener.outcome(active).dispatched());
            assertTrue(r.listener.outcome(bulk).dispatched(), "64 active tokens are under the bulk threshold");
            assertEquals(1, r.router.stats().queued());

            r.router.responding(active);
            r.router.completed(active);
            r.router.responding(bulk);
            r.router.completed(bulk);
            long queuedSecond = r.router.submit(request("queued-second", 64, "latency"), r.listener);
            r.step();
            assertTrue(r.listener.outcome(queuedFirst).dispatched());
            assertFalse(r.listener.has(queuedSecond));

            r.router.responding(queuedFirst);
            r.step();
            assertTrue(r.listener.outcome(queuedSecond).dispatched());
        }
    }

    @Test
    void shouldDrainAnotherClassesBacklogBeforeAnArrival() throws ConfigException {
        try (SteppedRouter r = SteppedRouter.withProfile(null, profile(TWO_CLASSES.formatted(1024, 0)))
            .worker(0, 64)) {
            long active = r.submit(request("active", 64, "latency"));
            long bulkHead = r.submit(request("bulk-head", 64, "bulk"));
            assertEquals(1, r.router.stats().queued());

            r.router.completed(active);
            long arrival = r.router.submit(request("latency-arrival", 64, "latency"), r.listener);
            r.step();
            assertTrue(r.listener.outcome(bulkHead).dispatched());
            assertTrue(r.listener.outcome(arrival).dispatched());
            assertTrue(r.listener.inOrder().indexOf(r.listener.outcome(bulkHead))
                < r.listener.inOrder().indexOf(r.listener.outcome(arrival)));
            assertEquals(0, r.router.stats().queued());
        }
    }

    @Test
    void shouldNeverQueueAClassWithAZeroLimit() throws ConfigException {
        for (String limit : new String[] {"request_queue_limit_per_worker", "raw_isl_token_queue_limit_per_worker"}) {
            PolicyProfile capped = profile("""
                default_policy_family: capped
                uncached_isl_buckets: [{min_tokens: 0, bucket: all}]
                policy_classes:
                  - {name: capped, policy_family: capped, cache_bucket: all, quantum: 1,
                     prefill_busy_threshold: 0, %s: 0}
                """.formatted(limit));
            try (SteppedRouter r = SteppedRouter.withProfile(null, capped).worker(0, 64)) {
                long idle = r.submit("admitted-idle", 64);
                long busy = r.submit("rejected-busy", 64);
                assertTrue(r.listener.outcome(idle).dispatched(), limit);
                AdmissionError error = r.listener.outcome(busy).error();
                assertEquals("queue_rejected", error.reason(), limit);
                assertEquals(529, error.httpStatus(529));
                assertEquals(0, r.router.stats().queued());

                r.router.completed(idle);
                r.step();
                assertTrue(r.listener.outcome(r.submit("after-free", 64)).dispatched());
            }
        }
    }

    @Test
    void shouldRejectWithATypedClassLimitAndKeepTheBacklogWhenAWorkerLeaves() throws ConfigException {
        PolicyProfile capped = profile("""
            default_policy_family: capped
            uncached_isl_buckets: [{min_tokens: 0, bucket: all}]
            policy_classes:
              - {name: capped, policy_family: capped, cache_bucket: all, quantum: 1,
                 prefill_busy_threshold: 0, request_queue_limit_per_worker: 1}
            """);
        try (SteppedRouter r = SteppedRouter.withProfile(null, capped).worker(0, 64)) {
            r.submit("active", 64);
            long first = r.submit("first", 64);
            long rejected = r.submit("rejected", 64);
            AdmissionError error = r.listener.outcome(rejected).error();
            assertEquals("router policy class \"capped\" queue requests limit reached (current=1, limit=1)",
                error.publicMessage());

            r.worker(1, 64);
            long second = r.submit("second", 64);
            assertEquals(WorkerWithDpRank.of(1), r.listener.outcome(first).worker());
            assertFalse(r.listener.has(second));
            r.router.workerLeft(WorkerWithDpRank.of(1));
            r.step();
            long again = r.submit("rejected-again", 64);
            assertEquals("router policy class \"capped\" queue requests limit reached (current=1, limit=1)",
                r.listener.outcome(again).error().publicMessage());
            assertEquals(1, r.router.stats().queued());
        }
    }

    @Test
    void shouldNotLetABlockedPinnedLaneBlockAnotherWorker() {
        try (SteppedRouter r = queueing(2)) {
            long pinned1 = r.submit(AdmissionRequest.builder("pinned-1").inputTokens(64)
                .pinnedWorker(WorkerWithDpRank.of(1)).build());
            long pinned2 = r.submit(AdmissionRequest.builder("pinned-2").inputTokens(64)
                .pinnedWorker(WorkerWithDpRank.of(1)).build());
            long pinned0 = r.submit(AdmissionRequest.builder("pinned-0").inputTokens(64)
                .pinnedWorker(WorkerWithDpRank.of(0)).build());
            assertEquals(WorkerWithDpRank.of(1), r.listener.outcome(pinned1).worker());
            assertFalse(r.listener.has(pinned2));
            assertEquals(WorkerWithDpRank.of(0), r.listener.outcome(pinned0).worker());

            r.router.completed(pinned1);
            r.step();
            assertEquals(WorkerWithDpRank.of(1), r.listener.outcome(pinned2).worker());
            assertEquals(0, r.router.stats().queued());
        }
    }

    @Test
    void shouldValidateClassifierOverridesStrictly() throws ConfigException {
        PolicyProfile families = profile("""
            default_policy_family: latency
            uncached_isl_buckets: [{min_tokens: 0, bucket: cached}, {min_tokens: 32, bucket: uncached}]
            policy_classes:
              - {name: latency_cached, policy_family: latency, cache_bucket: cached, quantum: 1}
              - {name: latency_uncached, policy_family: latency, cache_bucket: uncached, quantum: 1}
              - {name: bulk_cached, policy_family: bulk, cache_bucket: cached, quantum: 1}
              - {name: bulk_uncached, policy_family: bulk, cache_bucket: uncached, quantum: 1}
              - {name: custom_priority, quantum: 1}
            """);
        for (String[] c : new String[][] {{"bulk", "ok"}, {"custom_priority", "ok"}, {"missing", "fail"},
            {"latency_cached", "fail"}}) {
            RecordingClassifier classifier = new RecordingClassifier().deciding(req -> {
                req.setPolicyClass(c[0]);
                return Classification.admit(req);
            });
            try (SteppedRouter r = SteppedRouter.withProfile(classifier, families).worker(0, 64)) {
                long id = r.submit(request("r", 16, "latency"));
                if (c[1].equals("ok")) {
                    assertTrue(r.listener.outcome(id).dispatched(), c[0]);
                } else {
                    AdmissionError error = r.listener.outcome(id).error();
                    assertEquals(500, error.httpStatus(529), c[0]);
                    assertEquals("request classifier failed", error.publicMessage());
                    assertEquals("invalid classification metadata: unknown policy class \"" + c[0] + "\"",
                        error.diagnostic());
                }
            }
        }
        RecordingClassifier zeroCost = new RecordingClassifier().deciding(req -> {
            req.setSchedulingCostTokens(0);
            return Classification.admit(req);
        });
        try (SteppedRouter r = SteppedRouter.withProfile(zeroCost, families).worker(0, 64)) {
            long id = r.submit(request("zero-cost", 16, null));
            assertTrue(r.listener.outcome(id).error().diagnostic().contains("scheduling cost must be at least 1"));
        }
    }

    @Test
    void shouldUseWorkersAsTheyRegister() {
        try (SteppedRouter r = new SteppedRouter(null)) {
            assertEquals("no_endpoints", r.listener.outcome(r.submit("before", 8)).error().reason());
            r.router.workerJoined(WorkerWithDpRank.of(100), 512, OptionalLong.empty());
            r.router.workerJoined(WorkerWithDpRank.of(200), 512, OptionalLong.empty());
            r.step();
            java.util.Set<Long> used = new java.util.HashSet<>();
            for (int i = 0; i < 4; i++) {
                used.add(r.listener.outcome(r.submit("r" + i, 8)).worker().workerId());
            }
            assertEquals(java.util.Set.of(100L, 200L), used);
        }
    }
}
