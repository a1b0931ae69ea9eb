package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.spi.RequestClassifier;
import dev.sluice.transport.engine.sim.SimEngineContext;
import dev.sluice.transport.testing.RawHttp;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The classification timeout through real HTTP: a classifier that parks a request and never wakes it gets the
 * client a 504 {@code classifier_timeout} with a clean body, counted in {@code /metrics}; the others are served.
 */
class ClassificationTimeoutSystemTest {
    private static final String MODEL = "timeout-model";

    /** Parks requests whose prompt says {@code forget me} and never wakes them; admits the rest. */
    static final class ForgetfulClassifier implements RequestClassifier {
        @Override
        public Classification classify(ClassifyRequest request) {
            if (request.inputTokens() == 2) {
                request.wakeup();
                return Classification.park(request, ClassifyRequest.NO_DEADLINE, null);
            }
            return Classification.admit(request);
        }
    }

    private static byte[] body(String prompt) {
        return ("{\"model\":\"" + MODEL + "\",\"prompt\":\"" + prompt + "\",\"max_tokens\":2}")
            .getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void shouldAnswer504ToAParkThatOutlastsTheTimeout() throws Exception {
        RouterContext router = new RouterContext().classifierFactory(c -> new ForgetfulClassifier())
            .classificationTimeout(Duration.ofMillis(100));
        try (Frontend frontend = Frontend.start(new FrontendSettings("127.0.0.1", 0, MODEL, 4096, 16, 529, null,
            Duration.ofSeconds(1), router, new EngineSetup.Simulated(new SimEngineContext().numGpuBlocks(4096)
                .blockSize(16).speedupRatio(50), 1), null, TrustedSources.of(List.of())))) {
            RawHttp.Response forgotten = RawHttp.exchange(frontend.port(), RawHttp.post("/v1/completions", Map.of(),
                body("forget me")));
            assertEquals(504, forgotten.status(), forgotten.text());
            assertTrue(forgotten.body().contains("\"code\":\"classifier_timeout\""), forgotten.body());
            assertTrue(forgotten.body().contains("request classification timed out"), forgotten.body());
            assertFalse(forgotten.body().contains("timeout of"),
                "no operator detail for the client: " + forgotten.body());

            RawHttp.Response served = RawHttp.exchange(frontend.port(), RawHttp.post("/v1/completions", Map.of(),
                body("one two three")));
            assertEquals(200, served.status(), served.text());

            String metrics = RawHttp.exchange(frontend.port(), ("GET /metrics HTTP/1.1\r\nHost: x\r\n"
                + "Connection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1)).body();
            Matcher line = Pattern.compile("(?m)^sluice_classifier_timeouts_total\\{[^}]*} (\\d+)$").matcher(metrics);
            assertTrue(line.find(), metrics);
            assertEquals(1, Long.parseLong(line.group(1)));
        }
    }
}
