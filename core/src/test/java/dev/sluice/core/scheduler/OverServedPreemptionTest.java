package dev.sluice.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
 * Preemption inside a tenant-fair class ({@code vtc: preempt_over_served: true}) on a stepped router and a manual
 * clock: the blocked head of the least-charged tenant takes the worker of the youngest unanswered request of the
 * over-served tenant of its class holding the most requests in service (level within twice the largest charge of one
 * request), which ends {@code preempted} exactly as a cross-class victim does; a tenant never
 * preempts its own work, nor a tenant holding one more request in service and queuing no more, nor a tenant holding
 * fewer than twice the head tenant's requests in service, nor a request that responded; at most one such preemption
 * per dispatch round; without the key nothing is preempted.
 */
class OverServedPreemptionTest {
    private static final String POLICY = """
        default_policy_family: shared
        uncached_isl_buckets: [{min_tokens: 0, bucket: all}]
        policy_classes:
          - {name: shared, policy_family: shared, cache_bucket: all, quantum: 1, prefill_busy_threshold: 0,
             tenant_fairness: vtc, vtc: {preempt_over_served: %s}}
        """;

    private static SteppedRouter router(RecordingClassifier classifier, boolean preempt, int workers)
        throws ConfigException {
        PolicyProfile profile = RouterPolicyLoader.parse(POLICY.formatted(preempt), "<inline>").root().orElseThrow();
        SteppedRouter r = new SteppedRouter(classifier, new RouterContext().profile(profile));
        for (int w = 1; w <= workers; w++) {
            r.worker(w, 1000);
        }
        return r;
    }

    private static long send(SteppedRouter r, PreemptionHost host, String id, String tenant) {
        return r.router.submit(AdmissionRequest.builder(id).inputTokens(100).tenant(tenant).build(), host);
    }

    private static long submit(SteppedRouter r, PreemptionHost host, String id, String tenant) {
        long lifecycle = send(r, host, id, tenant);
        r.step();
        return lifecycle;
    }

    @Test
    void shouldPreemptTheOverServedTenantsYoungestUnansweredRequestForALightTenant() throws Exception {
        RecordingClassifier classifier = new RecordingClassifier();
        PreemptionHost host = new PreemptionHost();
        try (SteppedRouter r = router(classifier, true, 2)) {
            long h1 = submit(r, host, "h1", "heavy");
            long h2 = submit(r, host, "h2", "heavy");
            long h3 = submit(r, host, "h3", "heavy");
            assertTrue(host.dispatched.containsKey(h1) && host.dispatched.containsKey(h2));
            assertFalse(host.dispatched.containsKey(h3), "the fleet is full");
            assertTrue(host.preempted.isEmpty(), "a tenant never preempts its own work");

            long light = submit(r, host, "l1", "light");
            AdmissionError error = host.preempted.get(h2);
            assertEquals("preempted", error.reason());
            assertEquals(503, error.httpStatus(529));
            assertTrue(error.retryAfterNanos() >= 1_000_000_000L, "a Retry-After of at least 1 s");
            assertFalse(host.preempted.containsKey(h1), "the youngest goes");
            assertEquals(host.dispatched.get(h2), host.dispatched.get(light), "on the victim's worker, at once");
            assertFalse(host.dispatched.containsKey(h3), "the heavy backlog still waits");
            assertEquals(1, r.router.stats().preempted());
            List<ClassifyEvent> ends = classifier.events("h2").stream()
                .filter(e -> e instanceof ClassifyEvent.Aborted).toList();
            assertEquals(1, ends.size(), "exactly one Aborted");
            assertSame(error, ((ClassifyEvent.Aborted) ends.get(0)).cause().orElseThrow());

            // Heavy now holds one worker, light one: the heavy head cannot take it back.
            r.router.completed(h1);
            r.step();
            assertTrue(host.dispatched.containsKey(h3));
            long h4 = submit(r, host, "h4", "heavy");
            assertFalse(host.dispatched.containsKey(h4));
            assertEquals(1, r.router.stats().preempted());
        }
    }

    @Test
    void shouldChargeThePreemptingHeadsTenantAsADispatchFromThePollWould() throws Exception {
        PreemptionHost host = new PreemptionHost();
        try (SteppedRouter r = router(new RecordingClassifier(), true, 2)) {
            long h1 = submit(r, host, "h1", "heavy");
            submit(r, host, "h2", "heavy");
            long h3 = submit(r, host, "h3", "heavy");
            submit(r, host, "l1", "light");
            assertEquals(1, r.router.stats().preempted());
            long l2 = submit(r, host, "l2", "light");
            // Charged its prompt (100) and holding l1 in service, light is level with heavy once h1's 25 generated
            // tokens (at weight 2) are charged; heavy then holds fewer in service, so its older head goes first.
            r.router.completed(h1, 150);
            r.step();
            assertTrue(host.dispatched.containsKey(h3));
            assertFalse(host.dispatched.containsKey(l2));
        }
    }

    @Test
    void shouldLeaveTheLightTenantWaitingWithoutTheKey() throws Exception {
        PreemptionHost host = new PreemptionHost();
        try (SteppedRouter r = router(new RecordingClassifier(), false, 2)) {
            submit(r, host, "h1", "heavy");
            submit(r, host, "h2", "heavy");
            long light = submit(r, host, "l1", "light");
            assertFalse(host.dispatched.containsKey(light));
            assertTrue(host.preempted.isEmpty());
            assertEquals(0, r.router.stats().preempted());
        }
    }

    @Test
    void shouldPreemptATenantHoldingOneMoreRequestOnlyWhenItAlsoQueuesMore() throws Exception {
        PreemptionHost host = new PreemptionHost();
        try (SteppedRouter r = router(new RecordingClassifier(), true, 1)) {
            long h1 = submit(r, host, "h1", "heavy");
            long light = submit(r, host, "l1", "light");
            assertFalse(host.dispatched.containsKey(light), "level queues: light would then be the over-served one");
            submit(r, host, "h2", "heavy");
            assertFalse(host.dispatched.containsKey(light), "one queued each");
            assertTrue(host.preempted.isEmpty());
            submit(r, host, "h3", "heavy");
            assertTrue(host.preempted.containsKey(h1), "one more in service and two queued against one");
            assertTrue(host.dispatched.containsKey(light));
        }
    }

    @Test
    void shouldPassOverARespondedOrStreamingRequestToTheNextVictim() throws Exception {
        PreemptionHost host = new PreemptionHost();
        try (SteppedRouter r = router(new RecordingClassifier(), true, 3)) {
            long h1 = submit(r, host, "h1", "heavy");
            long h2 = submit(r, host, "h2", "heavy");
            long h3 = submit(r, host, "h3", "heavy");
            long h4 = submit(r, host, "h4", "heavy");
            r.router.responding(h3);
            r.step();
            assertTrue(host.dispatched.containsKey(h4), "the responded request's prefill left its worker");
            host.streaming.add(h4);
            host.streaming.add(h2);
            long light = submit(r, host, "l1", "light");
            assertFalse(host.preempted.containsKey(h4) || host.preempted.containsKey(h2), "their hosts streamed");
            assertFalse(host.preempted.containsKey(h3), "it has responded");
            assertTrue(host.preempted.containsKey(h1), "the next victim is asked");
            assertEquals(host.dispatched.get(h1), host.dispatched.get(light));
            assertEquals(1, r.router.stats().preempted());
        }
    }

    /**
     * Tenant {@code t} is served {@code n} requests of 100 prompt tokens at once, each ending after 500 generated
     * tokens: charged 100 + 1000 each, it ends ahead of the floor a newcomer is lifted to (its counter before its last
     * dispatch) by 100 + n · 1000, more than twice one request's charge for n of 3 or more.
     */
    private static void serveAtOnce(SteppedRouter r, PreemptionHost host, String t, int n) {
        long[] ids = new long[n];
        for (int i = 0; i < n; i++) {
            ids[i] = submit(r, host, t + "0-" + i, t);
        }
        for (long id : ids) {
            r.router.completed(id, 600);
            r.step();
        }
    }

    @Test
    void shouldPreemptAtMostOncePerDispatchRound() throws Exception {
        PreemptionHost host = new PreemptionHost();
        try (SteppedRouter r = router(new RecordingClassifier(), true, 5)) {
            // Each light tenant is first served four requests at once, so it is charged more than heavy for a while:
            // a 4400, b 4700, c 5000, and heavy, lifted to 900, 1400 once its first five are dispatched.
            for (String t : List.of("a", "b", "c")) {
                serveAtOnce(r, host, t, 4);
            }
            long[] heavy = new long[6];
            for (int i = 0; i < heavy.length; i++) {
                heavy[i] = submit(r, host, "h" + i, "heavy");
            }
            long a = submit(r, host, "a1", "a");
            long b = submit(r, host, "b1", "b");
            long c = submit(r, host, "c1", "c");
            assertEquals(0, r.router.stats().preempted(), "heavy is the least charged, by more than"
                + " twice the largest charge of one request (1100); its own work is safe");
            // heavy's generated tokens charge it past the light tenants: in this one round a1 takes the freed
            // worker, b1 preempts, and c1 must wait for the next round.
            r.router.completed(heavy[0], 2100);
            r.step();
            assertTrue(host.dispatched.containsKey(a) && host.dispatched.containsKey(b));
            assertTrue(host.preempted.containsKey(heavy[4]), "the youngest heavy request in service");
            assertFalse(host.dispatched.containsKey(c), "one preemption per round");
            assertEquals(1, r.router.stats().preempted());
            submit(r, host, "h6", "heavy");
            assertTrue(host.dispatched.containsKey(c), "the next round takes the next");
            assertTrue(host.preempted.containsKey(heavy[3]));
            assertEquals(2, r.router.stats().preempted());
        }
    }

    @Test
    void shouldTakeFromTheTenantHoldingTheMostRequestsInServiceNotTheOneChargedMost() throws Exception {
        PreemptionHost host = new PreemptionHost();
        try (SteppedRouter r = router(new RecordingClassifier(), true, 5)) {
            submit(r, host, "h1", "heavy");
            submit(r, host, "h2", "heavy");
            long h3 = submit(r, host, "h3", "heavy");
            submit(r, host, "m1", "mid");
            long m2 = submit(r, host, "m2", "mid");
            submit(r, host, "h4", "heavy");
            // heavy (300, three in service) and mid (400, two) are both over-served against light, lifted to 300.
            long light = submit(r, host, "l1", "light");
            assertTrue(host.preempted.containsKey(h3), "the youngest request of the tenant holding the most");
            assertFalse(host.preempted.containsKey(m2), "mid is charged more, but holds fewer");
            assertEquals(host.dispatched.get(h3), host.dispatched.get(light));
            assertEquals(1, r.router.stats().preempted());
        }
    }

    /** Light is served one request: 250 prompt tokens, ending at {@code contextTokens}. */
    private static void serveLight(SteppedRouter r, PreemptionHost host, int contextTokens) {
        long id = r.router.submit(AdmissionRequest.builder("l0").inputTokens(250).tenant("light").build(), host);
        r.step();
        r.router.completed(id, contextTokens);
        r.step();
    }

    @Test
    void shouldLetTheNextTenantsHeadPreemptWhenTheLeastChargedTenantIsOverServedByLessThanOneRequest()
        throws Exception {
        PreemptionHost host = new PreemptionHost();
        try (SteppedRouter r = router(new RecordingClassifier(), true, 2)) {
            serveLight(r, host, 250);
            submit(r, host, "h1", "heavy");
            long h2 = submit(r, host, "h2", "heavy");
            long h3 = submit(r, host, "h3", "heavy");
            // heavy (200 charged, two in service) heads the queue against light (250); heavy may not preempt
            // itself, but light is ahead of it by less than twice the victim's prompt (100).
            long light = submit(r, host, "l1", "light");
            assertTrue(host.preempted.containsKey(h2), "the youngest heavy request in service");
            assertEquals(host.dispatched.get(h2), host.dispatched.get(light));
            assertFalse(host.dispatched.containsKey(h3));
            assertEquals(1, r.router.stats().preempted());
        }
    }

    @Test
    void shouldCountATenantAheadByLessThanTwiceTheLargestChargeOfOneRequestAsLevel() throws Exception {
        PreemptionHost host = new PreemptionHost();
        try (SteppedRouter r = router(new RecordingClassifier(), true, 2)) {
            serveLight(r, host, 1000);
            submit(r, host, "h1", "heavy");
            long h2 = submit(r, host, "h2", "heavy");
            long h3 = submit(r, host, "h3", "heavy");
            // light (250 + 2 · 750 = 1750) is ahead of heavy (200) by far more than twice a heavy prompt (100), but
            // by less than twice the largest charge of one request, its own 1750: VTC's bound, so level.
            long light = submit(r, host, "l1", "light");
            assertTrue(host.preempted.containsKey(h2), "the youngest heavy request in service");
            assertEquals(host.dispatched.get(h2), host.dispatched.get(light));
            assertFalse(host.dispatched.containsKey(h3));
        }
    }

    @Test
    void shouldNotLetTheNextTenantsHeadPreemptATenantChargedLessByMoreThanTwiceTheLargestRequest() throws Exception {
        PreemptionHost host = new PreemptionHost();
        try (SteppedRouter r = router(new RecordingClassifier(), true, 4)) {
            serveAtOnce(r, host, "light", 4);
            for (int i = 0; i < 5; i++) {
                submit(r, host, "h" + i, "heavy");
            }
            // light (4400) is ahead of heavy (lifted to 300, then 700) by more than twice the largest charge (1100).
            long light = submit(r, host, "l1", "light");
            assertFalse(host.dispatched.containsKey(light));
            assertTrue(host.preempted.isEmpty());
        }
    }

    /**
     * Light is served {@code light} requests and heavy {@code heavy}, all at once on as many workers, each 100 prompt
     * tokens (light charged less: heavy is lifted to light's counter before its last dispatch); then a light request
     * arrives to a full fleet. Returns heavy's youngest request.
     */
    private static long[] holdInService(SteppedRouter r, PreemptionHost host, int light, int heavy) {
        for (int i = 0; i < light; i++) {
            submit(r, host, "l0-" + i, "light");
        }
        long youngest = -1;
        for (int i = 0; i < heavy; i++) {
            youngest = submit(r, host, "h0-" + i, "heavy");
        }
        return new long[] {youngest, submit(r, host, "l1", "light")};
    }

    @Test
    void shouldNotPreemptATenantHoldingFewerThanTwiceTheHeadTenantsRequestsInService() throws Exception {
        PreemptionHost host = new PreemptionHost();
        try (SteppedRouter r = router(new RecordingClassifier(), true, 8)) {
            // heavy holds five, two more than light's three, but fewer than twice three.
            long[] ids = holdInService(r, host, 3, 5);
            assertFalse(host.dispatched.containsKey(ids[1]), "light waits for a free worker");
            assertTrue(host.preempted.isEmpty());
            assertEquals(0, r.router.stats().preempted());
        }
    }

    @Test
    void shouldPreemptATenantHoldingTwiceTheHeadTenantsRequestsInService() throws Exception {
        PreemptionHost host = new PreemptionHost();
        try (SteppedRouter r = router(new RecordingClassifier(), true, 6)) {
            long[] ids = holdInService(r, host, 2, 4);
            assertTrue(host.preempted.containsKey(ids[0]), "heavy holds four, twice light's two");
            assertEquals(host.dispatched.get(ids[0]), host.dispatched.get(ids[1]));
            assertEquals(1, r.router.stats().preempted());
        }
    }
}
