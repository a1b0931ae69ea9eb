package dev.sluice.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.ClassifyEvent;
import dev.sluice.core.config.ConfigException;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.testing.PreemptionHost;
import dev.sluice.core.testing.RecordingClassifier;
import dev.sluice.core.testing.SteppedRouter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Preemption on a stepped router and a manual clock: a blocked head of a higher class takes the capacity of a
 * dispatched, unanswered request of a preemptible lower class; the victim's host answers {@code preempted} with a
 * Retry-After, its classifier hears exactly one Aborted with that cause, its booking goes to the preemptor at once;
 * a request that has responded, a class that is not preemptible and a host that has begun streaming are left alone.
 */
class PreemptionTest {
    private static final String POLICY = """
        default_policy_family: bulk
        uncached_isl_buckets: [{min_tokens: 0, bucket: all}]
        policy_classes:
          - {name: interactive, policy_family: interactive, cache_bucket: all, quantum: 1,
             prefill_busy_threshold: 0, preemption_priority: 10}
          - {name: bulk, policy_family: bulk, cache_bucket: all, quantum: 1, prefill_busy_threshold: 0,
             preemptible: true}
          - {name: keep, policy_family: keep, cache_bucket: all, quantum: 1, prefill_busy_threshold: 0}
        """;

    private static PolicyProfile profile() throws ConfigException {
        return RouterPolicyLoader.parse(POLICY, "<inline>").root().orElseThrow();
    }

    private static long submit(SteppedRouter r, PreemptionHost host, String id, String policyClass) {
        long lifecycle = r.router.submit(AdmissionRequest.builder(id).inputTokens(100).policyClass(policyClass)
            .build(), host);
        r.step();
        return lifecycle;
    }

    private static SteppedRouter router(RecordingClassifier classifier) throws ConfigException {
        return new SteppedRouter(classifier, new RouterContext().profile(profile())).worker(1, 1000);
    }

    @Test
    void shouldPreemptTheUnansweredBulkRequestForAnInteractiveOne() throws Exception {
        RecordingClassifier classifier = new RecordingClassifier();
        PreemptionHost host = new PreemptionHost();
        try (SteppedRouter r = router(classifier)) {
            long low = submit(r, host, "low", "bulk");
            assertTrue(host.dispatched.containsKey(low));
            long high = submit(r, host, "high", "interactive");

            AdmissionError error = host.preempted.get(low);
            assertEquals("preempted", error.reason());
            assertEquals(503, error.httpStatus(529));
            assertTrue(error.retryAfterNanos() >= 1_000_000_000L, "a Retry-After of at least 1 s");
            assertTrue(host.dispatched.containsKey(high), "the preemptor takes the freed worker at once");
            assertEquals(0, r.router.stats().queued());
            List<ClassifyEvent> ends = classifier.events("low").stream()
                .filter(e -> e instanceof ClassifyEvent.Aborted).toList();
            assertEquals(1, ends.size(), "exactly one Aborted");
            ClassifyEvent.Aborted aborted = (ClassifyEvent.Aborted) ends.get(0);
            assertSame(error, aborted.cause().orElseThrow());
            assertEquals(1, r.router.stats().preempted());

            // The host's late reports about the preempted lifecycle are ignored; nothing else ends twice.
            r.router.aborted(low, null);
            r.step();
            assertEquals(1, classifier.events("low").stream().filter(e -> e instanceof ClassifyEvent.Aborted)
                .count());
            r.router.responding(high);
            r.router.completed(high);
            r.step();
            assertTrue(classifier.events("high").stream().anyMatch(e -> e instanceof ClassifyEvent.Completed));
        }
    }

    @Test
    void shouldPreemptForTheHeadOfATenantFairClass() throws Exception {
        // A tenant-fair class keeps its shared entries in per-tenant lanes: its head is the least-charged tenant's.
        PolicyProfile fair = RouterPolicyLoader.parse(POLICY.replace("preemption_priority: 10}",
            "preemption_priority: 10, tenant_fairness: vtc}"), "<inline>").root().orElseThrow();
        PreemptionHost host = new PreemptionHost();
        try (SteppedRouter r = new SteppedRouter(new RecordingClassifier(), new RouterContext().profile(fair))
            .worker(1, 1000)) {
            long low = submit(r, host, "low", "bulk");
            long high = r.router.submit(AdmissionRequest.builder("high").inputTokens(100).policyClass("interactive")
                .tenant("a").build(), host);
            r.step();
            assertEquals("preempted", host.preempted.get(low).reason());
            assertTrue(host.dispatched.containsKey(high), "the tenant's head takes the freed worker");
            assertEquals(1, r.router.stats().preempted());
        }
    }

    @Test
    void shouldNeverPreemptARequestThatHasResponded() throws Exception {
        PreemptionHost host = new PreemptionHost();
        try (SteppedRouter r = router(new RecordingClassifier())) {
            long low = submit(r, host, "low", "bulk");
            r.router.responding(low);
            r.step();
            long high = submit(r, host, "high", "interactive");
            // The responding request's prefill left the estimate, so the worker is free anyway: no preemption.
            assertTrue(host.dispatched.containsKey(high));
            assertTrue(host.preempted.isEmpty());
            assertEquals(0, r.router.stats().preempted());
        }
    }

    @Test
    void shouldLeaveAHostThatHasBegunStreamingAndChooseTheVictimByOrder() throws Exception {
        PreemptionHost host = new PreemptionHost();
        try (SteppedRouter r = new SteppedRouter(new RecordingClassifier(),
            new RouterContext().profile(profile())).worker(1, 1000).worker(2, 1000)) {
            long first = submit(r, host, "bulk-1", "bulk");
            long second = submit(r, host, "bulk-2", "bulk");
            assertTrue(host.dispatched.containsKey(first) && host.dispatched.containsKey(second));
            // bulk-2, the later arrival, is the first choice; its host has begun its response and refuses.
            host.streaming.add(second);
            long high = submit(r, host, "high", "interactive");
            assertFalse(host.preempted.containsKey(second));
            assertTrue(host.preempted.containsKey(first), "the next victim is asked");
            assertEquals(host.dispatched.get(first), host.dispatched.get(high), "on the victim's worker");
            assertEquals(1, r.router.stats().preempted());
        }
    }

    @Test
    void shouldNotPreemptAClassThatIsNotPreemptibleNorForAnEqualClass() throws Exception {
        PreemptionHost host = new PreemptionHost();
        try (SteppedRouter r = router(new RecordingClassifier())) {
            long kept = submit(r, host, "kept", "keep");
            long high = submit(r, host, "high", "interactive");
            assertNull(host.preempted.get(kept));
            assertFalse(host.dispatched.containsKey(high), "queued behind the busy worker");
            long bulk = submit(r, host, "bulk", "bulk");
            assertFalse(host.dispatched.containsKey(bulk));
            r.router.completed(kept);
            r.step();
            // The interactive head is placed; the bulk request now waits behind it and cannot preempt its peer.
            assertTrue(host.dispatched.containsKey(high));
            assertFalse(host.dispatched.containsKey(bulk));
            assertTrue(host.preempted.isEmpty());
        }
    }

    @Test
    void shouldLetAStrictPriorityRequestPreemptItsOwnPreemptibleClass() throws Exception {
        RecordingClassifier classifier = new RecordingClassifier();
        PreemptionHost host = new PreemptionHost();
        try (SteppedRouter r = router(classifier)) {
            long low = submit(r, host, "low", "bulk");
            long urgent = r.router.submit(AdmissionRequest.builder("urgent").inputTokens(100).policyClass("bulk")
                .strictPriority(5).build(), host);
            r.step();
            assertInstanceOf(AdmissionError.class, host.preempted.get(low));
            assertTrue(host.dispatched.containsKey(urgent));
        }
    }
}
