package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.ErrorClass;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.spi.RequestClassifier;
import dev.sluice.transport.engine.sim.SimEngineContext;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** {@code x-sluice-decision} and {@code x-sluice-policy-class}: what admission decided, on every answer. */
class DecisionHeadersSystemTest {
    private static final String POLICY = """
        default_policy_family: chat
        uncached_isl_buckets:
          - min_tokens: 0
            bucket: short
        policy_classes:
          - name: chat_short
            policy_family: chat
            cache_bucket: short
            queue_policy: fcfs
            quantum: 1024
          - name: batch_short
            policy_family: batch
            cache_bucket: short
            queue_policy: fcfs
            quantum: 1024
        """;

    /** Puts every request in family {@code batch} and rejects the prompt {@code refuse}. */
    static final class Batch implements RequestClassifier {
        @Override
        public Classification classify(ClassifyRequest request) {
            request.setPolicyClass("batch");
            return request.inputTokens() == 1 ? Classification.reject(AdmissionError.of(ErrorClass.RATE_LIMITED))
                : Classification.admit(request);
        }
    }

    @Test
    void shouldNameTheDecisionAndTheClassItWasTakenIn() throws Exception {
        RouterContext router = new RouterContext().profile(RouterPolicyLoader.parse(POLICY, "test")
            .profileFor("m", OptionalDouble.empty(), QueuePolicy.FCFS)).classifierFactory(c -> new Batch());
        try (Frontend frontend = Frontend.start(new FrontendSettings("127.0.0.1", 0, "m", 1 << 20, 16, 529, null,
            Duration.ofSeconds(1), router, new EngineSetup.Simulated(new SimEngineContext().numGpuBlocks(4096)
                .blockSize(16).speedupRatio(50), 1), null))) {
            HttpResponse<String> admitted = post(frontend, "a longer prompt than one word");
            assertEquals(200, admitted.statusCode(), admitted.body());
            assertEquals("batch_short", admitted.headers().firstValue("x-sluice-policy-class").orElseThrow());
            assertTrue(admitted.headers().firstValue("x-sluice-decision").orElseThrow()
                .matches("dispatched; waited_ms=\\d+\\.\\d"), admitted.headers().map().toString());

            HttpResponse<String> refused = post(frontend, "refuse");
            assertEquals(429, refused.statusCode(), refused.body());
            assertEquals("rejected; code=rate_limited", refused.headers().firstValue("x-sluice-decision")
                .orElseThrow());
        }
    }

    private static HttpResponse<String> post(Frontend frontend, String prompt) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
            + frontend.port() + "/v1/completions")).header("content-type", "application/json").POST(
            HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"prompt\":\"" + prompt + "\",\"max_tokens\":2}"))
            .build(), HttpResponse.BodyHandlers.ofString());
    }
}
