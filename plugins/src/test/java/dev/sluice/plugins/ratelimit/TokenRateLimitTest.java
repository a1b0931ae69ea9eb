package dev.sluice.plugins.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyEvent;
import dev.sluice.core.api.ErrorClass;
import dev.sluice.core.api.ProviderException;
import dev.sluice.core.api.RequestClassifierContext;
import dev.sluice.core.api.RequestClassifierParameters;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.spi.RequestClassifierFactory;
import dev.sluice.core.testing.SteppedRouter;
import dev.sluice.core.testing.TestClocks;
import dev.sluice.plugins.testing.FakeRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;

/** Per-tenant request and token buckets with Retry-After, LRU-bounded tenants and completion-token debt. */
class TokenRateLimitTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final CachedNanoClock clock = TestClocks.at(0);
    private int ids;

    private static RequestClassifierFactory provide(Map<String, ?> parameters) throws ProviderException {
        return new TokenRateLimitProvider().provide(new RequestClassifierParameters(JSON.valueToTree(parameters)));
    }

    private TokenRateLimitClassifier classifier(Map<String, ?> parameters) throws ProviderException {
        return (TokenRateLimitClassifier) provide(parameters)
            .create(new RequestClassifierContext("m", 16, List::of, clock));
    }

    private Classification send(TokenRateLimitClassifier classifier, String tenant, long tokens) {
        return classifier.classify(new FakeRequest("r" + ids++, null, tokens, clock.nanoTime()).tenant(tenant));
    }

    @Test
    void shouldRejectTheRequestOverTheMinuteLimitWithRetryAfterWhenOneRefills() throws Exception {
        TokenRateLimitClassifier limiter = classifier(Map.of("requests_per_minute", 60));
        for (int i = 0; i < 60; i++) {
            assertEquals(Classification.Kind.ADMIT, send(limiter, "acme", 1).kind());
        }
        AdmissionError error = send(limiter, "acme", 1).error();
        assertEquals(ErrorClass.RATE_LIMITED, error.errorClass());
        assertEquals(429, error.httpStatus(529));
        assertEquals("Rate limit exceeded; retry later", error.publicMessage());
        assertEquals(1_000_000_000L, error.retryAfterNanos(), "one request refills every second");
        assertEquals("tenant \"acme\" is over its requests_per_minute (60)", error.diagnostic());

        clock.advance(Duration.ofMillis(999).toNanos());
        assertEquals(Classification.Kind.REJECT, send(limiter, "acme", 1).kind());
        clock.advance(Duration.ofMillis(1).toNanos());
        assertEquals(Classification.Kind.ADMIT, send(limiter, "acme", 1).kind());
    }

    @Test
    void shouldLimitTokensAndTellWhenEnoughHaveRefilled() throws Exception {
        TokenRateLimitClassifier limiter = classifier(Map.of("tokens_per_minute", 6000));
        assertEquals(Classification.Kind.ADMIT, send(limiter, "acme", 5000).kind());
        AdmissionError error = send(limiter, "acme", 2000).error();
        assertEquals(10_000_000_000L, error.retryAfterNanos(), "1000 tokens missing at 100 tokens per second");
        assertEquals(Classification.Kind.ADMIT, send(limiter, "acme", 1000).kind(), "a smaller request fits");
    }

    @Test
    void shouldKeepTenantsApartAndGiveRequestsWithoutTenantTheDefaultBucket() throws Exception {
        TokenRateLimitClassifier limiter = classifier(Map.of("requests_per_minute", 1, "default_tenant", "anon"));
        assertEquals(Classification.Kind.ADMIT, send(limiter, "a", 1).kind());
        assertEquals(Classification.Kind.ADMIT, send(limiter, "b", 1).kind());
        assertEquals(Classification.Kind.ADMIT, send(limiter, null, 1).kind());
        assertEquals(Classification.Kind.REJECT, send(limiter, null, 1).kind());
        assertEquals(Classification.Kind.REJECT, send(limiter, "a", 1).kind());
    }

    @Test
    void shouldApplyPerTenantOverridesInheritingUnsetLimits() throws Exception {
        TokenRateLimitClassifier limiter = classifier(Map.of("requests_per_minute", 1, "tokens_per_minute", 100,
            "tenants", Map.of("big", Map.of("requests_per_minute", 3))));
        for (int i = 0; i < 3; i++) {
            assertEquals(Classification.Kind.ADMIT, send(limiter, "big", 10).kind());
        }
        assertEquals(Classification.Kind.REJECT, send(limiter, "big", 10).kind());
        assertEquals(Classification.Kind.ADMIT, send(limiter, "roomy", 101).kind(),
            "an oversized request takes a full bucket instead of being refused forever");
        limiter = classifier(Map.of("tokens_per_minute", 100, "tenants",
            Map.of("t2", Map.of("requests_per_minute", 10))));
        assertEquals(Classification.Kind.ADMIT, send(limiter, "t2", 101).kind());
        AdmissionError error = send(limiter, "t2", 1).error();
        assertEquals("tenant \"t2\" is over its tokens_per_minute (100)", error.diagnostic());
        assertEquals(600_000_000L, error.retryAfterNanos(), "one token refills every 0.6 s");
    }

    @Test
    void shouldForgetTheLeastRecentlySeenTenantBeyondTheLimit() throws Exception {
        TokenRateLimitClassifier limiter = classifier(Map.of("requests_per_minute", 1, "max_tenants", 2));
        send(limiter, "a", 1);
        send(limiter, "b", 1);
        send(limiter, "a", 1);
        send(limiter, "c", 1);
        assertEquals(2, limiter.trackedTenants());
        assertEquals(Classification.Kind.ADMIT, send(limiter, "b", 1).kind(), "b was forgotten: a fresh bucket");
        assertEquals(Classification.Kind.REJECT, send(limiter, "c", 1).kind());
    }

    @Test
    void shouldChargeCompletionTokensAsDebtWhenConfigured() throws Exception {
        TokenRateLimitClassifier limiter = classifier(Map.of("tokens_per_minute", 6000,
            "count_completion_tokens", true));
        FakeRequest first = new FakeRequest("first", null, 1000, 0).tenant("acme");
        assertEquals(Classification.Kind.ADMIT, limiter.classify(first).kind());
        assertEquals(1, limiter.trackedRequests());
        limiter.onEvent(new ClassifyEvent.Completed("first", WorkerWithDpRank.of(1), OptionalLong.of(5000)));
        assertEquals(0, limiter.trackedRequests());
        assertEquals(Classification.Kind.ADMIT, send(limiter, "acme", 1000).kind(), "1000 + 4000 + 1000 fits 6000");
        AdmissionError error = send(limiter, "acme", 1000).error();
        assertEquals(10_000_000_000L, error.retryAfterNanos(), "the bucket is 1000 tokens over");

        int running = limiter.trackedRequests();
        limiter.classify(new FakeRequest("aborted", null, 10, 0).tenant("other"));
        assertEquals(running + 1, limiter.trackedRequests());
        limiter.onEvent(new ClassifyEvent.Aborted("aborted", Optional.empty(), Optional.empty()));
        assertEquals(running, limiter.trackedRequests(), "an aborted request releases its tracking");
    }

    @Test
    void shouldValidateParametersWithClearMessages() {
        assertEquals("set requests_per_minute, tokens_per_minute or tenants: without any limit the classifier "
            + "would limit nothing", assertThrows(ProviderException.class, () -> provide(Map.of())).getMessage());
        assertEquals("requests_per_minute must be between 1 and 100000000, was 0",
            assertThrows(ProviderException.class, () -> provide(Map.of("requests_per_minute", 0))).getMessage());
        assertEquals("tenants.acme.tokens_per_minute must be between 1 and 100000000, was -1",
            assertThrows(ProviderException.class, () -> provide(Map.of("tenants",
                Map.of("acme", Map.of("tokens_per_minute", -1))))).getMessage());
        assertEquals("max_tenants must be positive, was 0", assertThrows(ProviderException.class,
            () -> provide(Map.of("requests_per_minute", 1, "max_tenants", 0))).getMessage());
        assertEquals("default_tenant must not be empty", assertThrows(ProviderException.class,
            () -> provide(Map.of("requests_per_minute", 1, "default_tenant", " "))).getMessage());
        assertTrue(assertThrows(ProviderException.class, () -> provide(Map.of("requests_per_minute", 1,
            "tenants", Map.of("acme", Map.of("rpm", 1))))).getMessage().contains("rpm"));
    }

    @Test
    void shouldAnswer429WithRetryAfterThroughTheRouter() throws Exception {
        RouterContext context = new RouterContext().clock(clock)
            .classifierFactory(provide(Map.of("requests_per_minute", 2)));
        try (SteppedRouter r = new SteppedRouter(null, context).worker(1, 8192)) {
            for (int i = 0; i < 2; i++) {
                long id = r.submit(AdmissionRequest.builder("ok" + i).inputTokens(1).tenant("acme").build());
                assertTrue(r.listener.outcome(id).dispatched());
            }
            long limited = r.submit(AdmissionRequest.builder("limited").inputTokens(1).tenant("acme").build());
            AdmissionError error = r.listener.outcome(limited).error();
            assertEquals(429, error.httpStatus(529));
            assertEquals(30_000_000_000L, error.retryAfterNanos());
        }
    }
}
