package dev.sluice.plugins.ratelimit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifierTimers;
import dev.sluice.core.api.ErrorClass;
import dev.sluice.core.api.InMemoryBudgets;
import dev.sluice.core.api.KvInUseView;
import dev.sluice.core.api.ProviderException;
import dev.sluice.core.api.RequestClassifierContext;
import dev.sluice.core.api.RequestClassifierParameters;
import dev.sluice.core.api.SharedBudgets;
import dev.sluice.core.config.RouterPolicyConfig;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.router.RouterPlugins;
import dev.sluice.core.spi.RegistryException;
import dev.sluice.core.spi.RequestClassifierFactory;
import dev.sluice.core.testing.SteppedRouter;
import dev.sluice.core.testing.TestClocks;
import dev.sluice.plugins.testing.FakeRequest;
import dev.sluice.plugins.testing.ManualBudgets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;

/**
 * {@code scope: cluster}: one budget per tenant for all replicas, claimed in chunks from a shared store; the
 * overshoot bound when replicas race; the fail policy while the store is unreachable. Manual clock throughout.
 */
class ClusterScopeTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long MINUTE = Duration.ofMinutes(1).toNanos();

    private final CachedNanoClock clock = TestClocks.at(1_000_000_000_000L);
    private int ids;

    private static RequestClassifierFactory provide(Map<String, ?> parameters) throws ProviderException {
        return new TokenRateLimitProvider().provide(new RequestClassifierParameters(JSON.valueToTree(parameters)));
    }

    private static Map<String, Object> cluster(int rpm, Map<String, ?> cluster) {
        Map<String, Object> p = new HashMap<>();
        p.put("requests_per_minute", rpm);
        p.put("scope", "cluster");
        p.put("cluster", cluster);
        return p;
    }

    private TokenRateLimitClassifier replica(Map<String, ?> parameters, SharedBudgets store) throws Exception {
        return (TokenRateLimitClassifier) provide(parameters).create(new RequestClassifierContext("m", 16, List::of,
            clock, ClassifierTimers.NONE, KvInUseView.NONE, store));
    }

    /** Sends one request; true when it was admitted, at once or by its wake-up. */
    private boolean admitted(TokenRateLimitClassifier replica, String tenant) {
        FakeRequest request = new FakeRequest("r" + ids++, null, 1, clock.nanoTime()).tenant(tenant);
        Classification answer = replica.classify(request);
        return answer.kind() == Classification.Kind.ADMIT
            || answer.kind() == Classification.Kind.PARK && request.woken();
    }

    @Test
    void shouldAdmitFromTheLeaseAndClaimOncePerChunk() throws Exception {
        ManualBudgets store = new ManualBudgets(clock::nanoTime);
        TokenRateLimitClassifier replica = replica(cluster(600, Map.of("replicas", 3)), store);
        for (int i = 0; i < 21; i++) {
            assertTrue(admitted(replica, "acme"), "request " + i);
        }
        assertEquals(1, store.claims(), "the first claim took its request and a chunk of 600 / (10 x 3) = 20");
        assertTrue(admitted(replica, "acme"));
        assertEquals(2, store.claims());
        assertArrayEquals(new long[] {20, -1}, replica.cluster().tenant("acme").balances());
    }

    @Test
    void shouldBoundThreeReplicasRacingByOneBucketPlusReplicasTimesChunk() throws Exception {
        InMemoryBudgets store = new InMemoryBudgets(clock::nanoTime);
        Map<String, Object> settings = cluster(60, Map.of("replicas", 3, "chunk_requests", 5));
        List<TokenRateLimitClassifier> replicas = List.of(replica(settings, store), replica(settings, store),
            replica(settings, store));
        for (TokenRateLimitClassifier r : replicas) {
            assertTrue(admitted(r, "acme"), "each replica claims its request and a chunk of 5");
        }
        clock.advance(MINUTE);
        int admitted = 0;
        for (int i = 0; i < 300; i++) {
            admitted += admitted(replicas.get(i % 3), "acme") ? 1 : 0;
        }
        assertEquals(60 + 3 * 5, admitted, "a full bucket of 60, plus the 5 each replica held before it refilled");

        clock.advance(MINUTE);
        admitted = 0;
        for (int i = 0; i < 300; i++) {
            admitted += admitted(replicas.get(i % 3), "acme") ? 1 : 0;
        }
        assertEquals(60, admitted, "with no leases left over, the replicas together get exactly the limit");
    }

    @Test
    void shouldRejectWithRetryAfterFromTheSharedBucketWithoutAClaimPerRejection() throws Exception {
        ManualBudgets store = new ManualBudgets(clock::nanoTime);
        TokenRateLimitClassifier replica = replica(cluster(60, Map.of("replicas", 1, "chunk_requests", 60)), store);
        for (int i = 0; i < 60; i++) {
            assertTrue(admitted(replica, "acme"));
        }
        FakeRequest over = new FakeRequest("over", null, 1, clock.nanoTime()).tenant("acme");
        assertEquals(Classification.Kind.PARK, replica.classify(over).kind());
        AdmissionError error = over.rejection();
        assertEquals(ErrorClass.RATE_LIMITED, error.errorClass());
        assertEquals(1_000_000_000L, error.retryAfterNanos(), "one request refills every second");
        assertEquals("tenant \"acme\" is over its cluster requests_per_minute (60)", error.diagnostic());
        int claims = store.claims();
        Classification again = replica.classify(new FakeRequest("again", null, 1, clock.nanoTime()).tenant("acme"));
        assertEquals(Classification.Kind.REJECT, again.kind(), "the denial is remembered until it expires");
        assertEquals(claims, store.claims());
        clock.advance(1_000_000_000L);
        assertTrue(admitted(replica, "acme"));
    }

    @Test
    void shouldParkWhileOneClaimIsOutAndAdmitInArrivalOrderWhenItAnswers() throws Exception {
        ManualBudgets store = new ManualBudgets(clock::nanoTime).hold(true);
        TokenRateLimitClassifier replica = replica(cluster(600, Map.of("replicas", 3)), store);
        List<FakeRequest> parked = List.of(request("acme"), request("acme"), request("acme"));
        for (FakeRequest r : parked) {
            Classification answer = replica.classify(r);
            assertEquals(Classification.Kind.PARK, answer.kind());
            assertEquals(ErrorClass.UNAVAILABLE, answer.error().errorClass(), "a claim that never answers: 503");
        }
        assertEquals(1, store.pending(), "one claim per tenant at a time");
        parked.get(1).end();
        store.answerAll();
        assertTrue(parked.get(0).woken());
        assertFalse(parked.get(1).woken(), "its client left");
        assertTrue(parked.get(2).woken());
        assertArrayEquals(new long[] {19, -1}, replica.cluster().tenant("acme").balances(),
            "1 + a chunk of 20 claimed for the first, 3 taken, the unit of the request whose client left back");
    }

    @Test
    void shouldFailOpenToTheReplicaShareAndComeBackThroughOneProbe() throws Exception {
        ManualBudgets store = new ManualBudgets(clock::nanoTime).unreachable(true);
        TokenRateLimitClassifier replica = replica(cluster(60, Map.of("replicas", 3, "retry_ms", 1000)), store);
        int admitted = 0;
        for (int i = 0; i < 30; i++) {
            admitted += admitted(replica, "acme") ? 1 : 0;
        }
        assertEquals(20, admitted, "limit 60 / 3 replicas while the store is unreachable");
        assertEquals(1, store.claims(), "no claim per request while it is down");
        ClusterTenant tenant = replica.cluster().tenant("acme");
        assertTrue(tenant.partitioned());
        AdmissionError error = replica.classify(request("acme")).error();
        assertEquals(ErrorClass.RATE_LIMITED, error.errorClass());
        assertEquals("tenant \"acme\" is over its replica share of its requests_per_minute (20)", error.diagnostic());

        store.unreachable(false);
        clock.advance(Duration.ofSeconds(3).toNanos());
        assertTrue(admitted(replica, "acme"), "decided by the local share while the probe is out");
        assertEquals(2, store.claims());
        assertFalse(tenant.partitioned(), "the probe answered");
        assertTrue(admitted(replica, "acme"), "from the lease the probe claimed");
    }

    @Test
    void shouldFailClosedWith503WhileTheStoreIsUnreachable() throws Exception {
        ManualBudgets store = new ManualBudgets(clock::nanoTime).unreachable(true);
        TokenRateLimitClassifier replica = replica(cluster(60, Map.of("replicas", 3, "fail_policy", "closed")),
            store);
        FakeRequest first = request("acme");
        assertEquals(Classification.Kind.PARK, replica.classify(first).kind());
        AdmissionError error = first.rejection();
        assertEquals(503, error.httpStatus(529));
        assertEquals("rate_limit_store_unavailable", error.reason());
        assertEquals(1_000_000_000L, error.retryAfterNanos(), "retry_ms defaults to a second");
        assertEquals(Classification.Kind.REJECT, replica.classify(request("acme")).kind());
        assertEquals(1, store.claims());
    }

    @Test
    void shouldChargeCompletionTokensAsDebtTheNextClaimPays() throws Exception {
        ManualBudgets store = new ManualBudgets(clock::nanoTime);
        Map<String, Object> p = new HashMap<>(Map.of("tokens_per_minute", 6000, "count_completion_tokens", true,
            "scope", "cluster", "cluster", Map.of("replicas", 1, "chunk_tokens", 1000)));
        TokenRateLimitClassifier replica = replica(p, store);
        FakeRequest first = new FakeRequest("first", null, 1000, clock.nanoTime()).tenant("acme");
        replica.classify(first);
        assertTrue(first.woken());
        replica.onEvent(new dev.sluice.core.api.ClassifyEvent.Completed("first",
            dev.sluice.core.api.WorkerWithDpRank.of(1), java.util.OptionalLong.of(5000)));
        assertArrayEquals(new long[] {-1, -3000}, replica.cluster().tenant("acme").balances());
        FakeRequest second = new FakeRequest("second", null, 1000, clock.nanoTime()).tenant("acme");
        replica.classify(second);
        assertTrue(second.woken(), "1000 + 1000 + 4000 generated tokens fit 6000");
        FakeRequest third = new FakeRequest("third", null, 1000, clock.nanoTime()).tenant("acme");
        replica.classify(third);
        assertEquals(ErrorClass.RATE_LIMITED, third.rejection().errorClass());
    }

    @Test
    void shouldAdmitParkedRequestsThroughTheRouter() throws Exception {
        RouterContext context = new RouterContext().clock(clock).sharedBudgets(new InMemoryBudgets(clock::nanoTime))
            .classifierFactory(provide(cluster(2, Map.of("replicas", 2))));
        try (SteppedRouter r = new SteppedRouter(null, context).worker(1, 8192)) {
            for (int i = 0; i < 2; i++) {
                long id = r.submit(AdmissionRequest.builder("ok" + i).inputTokens(1).tenant("acme").build());
                r.stepUntil(() -> r.listener.outcome(id) != null);
                assertTrue(r.listener.outcome(id).dispatched());
            }
            long limited = r.submit(AdmissionRequest.builder("limited").inputTokens(1).tenant("acme").build());
            r.stepUntil(() -> r.listener.outcome(limited) != null);
            assertEquals(429, r.listener.outcome(limited).error().httpStatus(529));
        }
    }

    @Test
    void shouldValidateTheClusterSettingsWithClearMessages() {
        assertEquals("scope must be replica or cluster, was \"global\"", message(Map.of("requests_per_minute", 1,
            "scope", "global")));
        assertEquals("scope: cluster needs cluster.replicas, the number of replicas sharing the budget (each one's "
            + "share while the store is unreachable is the limit / replicas)",
            message(Map.of("requests_per_minute", 1, "scope", "cluster")));
        assertEquals("cluster is set but scope is replica: set scope: cluster to share it",
            message(Map.of("requests_per_minute", 1, "cluster", Map.of("replicas", 2))));
        assertEquals("cluster.fail_policy must be open or closed, was \"ajar\"",
            message(cluster(1, Map.of("replicas", 2, "fail_policy", "ajar"))));
        assertEquals("cluster.replicas must be between 1 and 1000, was 0", message(cluster(1, Map.of("replicas", 0))));
        assertEquals("cluster.chunk_tokens must be between 1 and 100000000, was 0",
            message(cluster(1, Map.of("replicas", 2, "chunk_tokens", 0))));
        assertEquals("cluster.claim_timeout_ms must be between 1 and 60000, was 0",
            message(cluster(1, Map.of("replicas", 2, "claim_timeout_ms", 0))));
        assertTrue(message(cluster(1, Map.of("replicas", 2, "chunk", 3))).contains("\"chunk\""));
    }

    @Test
    void shouldNameTheFileLineAndColumnOfARefusedClusterSetting() throws Exception {
        RouterPolicyConfig config = RouterPolicyLoader.parse("request_classifier:\n  type: token-rate-limit\n"
            + "  parameters:\n    requests_per_minute: 60\n    scope: cluster\n    cluster:\n      replicas: 3\n"
            + "      fail_policy: maybe\n", "admission.yaml");
        RouterPlugins plugins = RouterPlugins.loadCatalogs(getClass().getClassLoader());
        assertEquals("admission.yaml:3:3: request_classifier.parameters: invalid parameters for request-classifier "
            + "type \"token-rate-limit\": cluster.fail_policy must be open or closed, was \"maybe\"",
            assertThrows(RegistryException.class, () -> plugins.resolveRequestClassifier(config.requestClassifier()))
                .getMessage());
    }

    @Test
    void shouldRefuseClusterScopeWhenTheHostHasNoSharedStore() throws Exception {
        RequestClassifierFactory factory = provide(cluster(60, Map.of("replicas", 2)));
        IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> factory.create(new RequestClassifierContext("m", 16, List::of, clock)));
        assertTrue(e.getMessage().contains("--nats-url"), e.getMessage());
        assertNull(replicaScoped().cluster());
    }

    private TokenRateLimitClassifier replicaScoped() throws Exception {
        return replica(Map.of("requests_per_minute", 1), SharedBudgets.NONE);
    }

    private FakeRequest request(String tenant) {
        return new FakeRequest("r" + ids++, null, 1, clock.nanoTime()).tenant(tenant);
    }

    private static String message(Map<String, ?> parameters) {
        return assertThrows(ProviderException.class, () -> provide(parameters)).getMessage();
    }
}
