package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.router.RouterContext;
import dev.sluice.transport.engine.EngineRuntimeConfig;
import dev.sluice.transport.engine.http.HttpEngineSettings;
import dev.sluice.transport.engine.mock.MockEngineServer;
import dev.sluice.transport.engine.mock.MockEngineSettings;
import dev.sluice.transport.engine.sim.SimEngineContext;
import dev.sluice.transport.testing.CapturedStderr;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An engine that does not serve the model sluice asks it for answers 404: a configuration error, through real HTTP
 * on loopback against {@code mock-engine}. The client hears what is wrong (502 {@code engine_misconfigured}), the
 * log says it once, {@code /health} says it, and the worker is not marked unhealthy however many requests it fails.
 */
class MisconfiguredEngineSystemTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private static Frontend frontend(List<MockEngineServer> engines) throws Exception {
        EngineRuntimeConfig config = new EngineRuntimeConfig(16_384, 16, 8192, 256, 1);
        List<HttpEngineSettings> remote = new ArrayList<>();
        for (MockEngineServer engine : engines) {
            remote.add(HttpEngineSettings.of("http://127.0.0.1:" + engine.port(), "sluice-sim", Duration.ofSeconds(2),
                Duration.ofSeconds(10), config));
        }
        // Threshold 2: were a 404 an engine failure, the worker would leave the router after the second request.
        return Frontend.start(new FrontendSettings("127.0.0.1", 0, "sluice-sim", 1 << 20, 16, 529, null,
            Duration.ofSeconds(2), new RouterContext().workerSelector(RouterModes.ROUND_ROBIN.selector(null)),
            new EngineSetup.Remote(remote, new WorkerHealthSettings(2, Duration.ofHours(1), Duration.ofHours(1))),
            null));
    }

    private static MockEngineServer mock(String model) {
        return MockEngineServer.start(new MockEngineSettings("127.0.0.1", 0, model, 16,
            new SimEngineContext().speedupRatio(50)));
    }

    @Test
    void shouldReportAModelTheEngineDoesNotServeAsAConfigurationError() throws Exception {
        try (MockEngineServer wrong = mock("another-model"); CapturedStderr log = CapturedStderr.start();
             Frontend frontend = frontend(List.of(wrong))) {
            for (int i = 0; i < 4; i++) {
                HttpResponse<String> response = complete(frontend);
                assertEquals(502, response.statusCode(), response.body());
                JsonNode error = JSON.readTree(response.body()).get("error");
                assertEquals("engine_misconfigured", error.get("code").asText());
                assertEquals("sluice is misconfigured for its engine: the engine does not serve the model "
                    + "`sluice-sim` (HTTP 404); start it with that model or give serve the engine's name with "
                    + "--engine-model", error.get("message").asText());
            }
            assertEquals(0, frontend.health().unhealthyCount(), "a 404 is not an engine failure");
            assertTrue(frontend.health().healthy(0));
            assertEquals(1, log.count("worker 0 (http://127.0.0.1:" + wrong.port() + ") is misconfigured: the engine "
                + "does not serve the model `sluice-sim`"), log::text);

            HttpResponse<String> health = get(frontend);
            assertEquals(503, health.statusCode(), health.body());
            JsonNode body = JSON.readTree(health.body());
            assertEquals("misconfigured", body.get("status").asText());
            assertEquals(1, body.get("misconfigured_workers").asInt());
            assertEquals(0, body.get("unhealthy_workers").asInt());
            assertTrue(body.get("configuration_errors").get(0).asText().startsWith("worker 0 (http://127.0.0.1:"
                + wrong.port() + "): the engine does not serve the model `sluice-sim`"), body::toString);
        }
    }

    @Test
    void shouldStayHealthyWhileAnotherEngineServesTheModel() throws Exception {
        try (MockEngineServer right = mock("sluice-sim"); MockEngineServer wrong = mock("another-model");
             Frontend frontend = frontend(List.of(right, wrong))) {
            List<Integer> statuses = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                statuses.add(complete(frontend).statusCode());
            }
            assertEquals(List.of(200, 502, 200, 502), statuses, "round-robin: the misconfigured worker stays in");
            HttpResponse<String> health = get(frontend);
            assertEquals(200, health.statusCode(), health.body());
            JsonNode body = JSON.readTree(health.body());
            assertEquals("healthy", body.get("status").asText());
            assertEquals(1, body.get("misconfigured_workers").asInt());
        }
    }

    private static HttpResponse<String> complete(Frontend frontend) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + frontend.port()
            + "/v1/completions")).header("content-type", "application/json").POST(HttpRequest.BodyPublishers
            .ofString("{\"model\":\"sluice-sim\",\"prompt\":\"Is the gate open?\",\"max_tokens\":2}")).build(),
            HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> get(Frontend frontend) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + frontend.port() + "/health"))
            .build(), HttpResponse.BodyHandlers.ofString());
    }
}
