package dev.sluice.plugins.queuebudget;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ErrorClass;
import dev.sluice.core.api.ProviderException;
import dev.sluice.core.api.RequestClassifierContext;
import dev.sluice.core.api.RequestClassifierParameters;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.spi.RequestClassifier;
import dev.sluice.core.spi.RequestClassifierFactory;
import dev.sluice.core.testing.SteppedRouter;
import dev.sluice.core.testing.TestClocks;
import dev.sluice.plugins.testing.FakeRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The {@code queue-budget} classifier: the guide's example as a built-in. */
class QueueBudgetTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static RequestClassifierFactory provide(Map<String, ?> parameters) throws ProviderException {
        return new QueueBudgetProvider().provide(new RequestClassifierParameters(JSON.valueToTree(parameters)));
    }

    @Test
    void shouldSetTheDeadlineFromIngressWhileTheBudgetLasts() throws Exception {
        CachedNanoClock clock = TestClocks.at(10_000_000_000L);
        RequestClassifier classifier = provide(Map.of("max_wait_ms", 2000))
            .create(new RequestClassifierContext("m", 16, List::of, clock));
        FakeRequest request = new FakeRequest("r", null, 10, clock.nanoTime() - 500_000_000L);
        Classification decision = classifier.classify(request);
        assertEquals(Classification.Kind.ADMIT, decision.kind());
        assertEquals(request.ingressAt() + 2_000_000_000L, request.dueAt());
    }

    @Test
    void shouldRejectWhenTheBudgetIsSpent() throws Exception {
        CachedNanoClock clock = TestClocks.at(10_000_000_000L);
        RequestClassifier classifier = provide(Map.of("max_wait_ms", 2000))
            .create(new RequestClassifierContext("m", 16, List::of, clock));
        Classification decision = classifier.classify(new FakeRequest("r", null, 10,
            clock.nanoTime() - 2_000_000_000L));
        AdmissionError error = decision.error();
        assertEquals(ErrorClass.CAPACITY_EXHAUSTED, error.errorClass());
        assertEquals("admission wait budget exhausted", error.diagnostic());
        assertEquals("Admission wait budget exhausted; retry later", error.publicMessage());
        assertEquals(429, error.httpStatus(429), "DYN_HTTP_OVERLOAD_STATUS_CODE=429");
        assertEquals(529, error.httpStatus(529));
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 60_001, -5})
    void shouldRejectABudgetOutOfRange(long millis) {
        ProviderException e = assertThrows(ProviderException.class, () -> provide(Map.of("max_wait_ms", millis)));
        assertEquals("max_wait_ms must be between 1 and 60000", e.getMessage());
    }

    @Test
    void shouldRejectMissingAndUnknownParameters() {
        assertEquals("max_wait_ms is required",
            assertThrows(ProviderException.class, () -> provide(Map.of())).getMessage());
        assertTrue(assertThrows(ProviderException.class, () -> provide(Map.of("max_wait_ms", 5, "max_wait", 5)))
            .getMessage().contains("max_wait"));
        assertThrows(ProviderException.class, () -> provide(Map.of("max_wait_ms", "soon")));
    }

    @Test
    void shouldShedARequestStillQueuedWhenItsBudgetEnds() throws Exception {
        RouterContext context = new RouterContext().classifierFactory(provide(Map.of("max_wait_ms", 2000)))
            .profile(PolicyProfile.synthetic(OptionalDouble.of(1.0), QueuePolicy.FCFS));
        try (SteppedRouter r = new SteppedRouter(null, context).worker(1, 100)) {
            long running = r.submit(AdmissionRequest.builder("running").inputTokens(150).build());
            long queued = r.submit(AdmissionRequest.builder("queued").inputTokens(10).build());
            assertTrue(r.listener.outcome(running).dispatched());
            r.advance(Duration.ofMillis(1999));
            assertTrue(!r.listener.has(queued));
            r.advance(Duration.ofMillis(1));
            assertEquals("deadline_exceeded", r.listener.outcome(queued).error().reason());
        }
    }
}
