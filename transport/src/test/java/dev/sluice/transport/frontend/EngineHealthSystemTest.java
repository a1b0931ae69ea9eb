package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.router.RouterContext;
import dev.sluice.transport.engine.EngineRuntimeConfig;
import dev.sluice.transport.engine.http.HttpEngineSettings;
import dev.sluice.transport.testing.FaultyEngine;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * Remote engines that keep failing leave the router and come back when a probe finds them answering: through real
 * HTTP on loopback, with {@link FaultyEngine}s. The probe backoff is an hour, so the timer never probes during a
 * test; the tests probe when they choose ({@link WorkerHealth#probeNow}).
 */
class EngineHealthSystemTest {
    private static final String MODEL = "faulty";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private static Frontend frontend(List<String> urls, int failureThreshold) throws Exception {
        EngineRuntimeConfig config = new EngineRuntimeConfig(16_384, 16, 8192, 256, 1);
        List<HttpEngineSettings> engines = new ArrayList<>();
        for (String url : urls) {
            engines.add(HttpEngineSettings.of(url, MODEL, Duration.ofSeconds(2), Duration.ofSeconds(5), config));
        }
        WorkerHealthSettings health = new WorkerHealthSettings(failureThreshold, Duration.ofHours(1),
            Duration.ofHours(1));
        // Round-robin: with one request at a time, the workers take turns, so the failing one is hit predictably.
        return Frontend.start(new FrontendSettings("127.0.0.1", 0, MODEL, 1 << 20, 16, 529, null,
            Duration.ofSeconds(2), new RouterContext().workerSelector(RouterModes.ROUND_ROBIN.selector(null)),
            new EngineSetup.Remote(engines, health), null));
    }

    @Test
    void shouldRouteAroundAFailingEngineAndBringItBackWhenAProbeSucceeds() throws Exception {
        try (FaultyEngine good = new FaultyEngine(); FaultyEngine bad = new FaultyEngine();
             Frontend frontend = frontend(List.of(good.url(), bad.url()), 3)) {
            bad.failEverything(true);
            for (int i = 0; i < 6; i++) {
                HttpResponse<String> response = complete(frontend);
                if (i % 2 == 0) {
                    assertEquals(200, response.statusCode(), response.body());
                } else {
                    assertEquals(502, response.statusCode(), response.body());
                    assertEquals("engine_error", code(response));
                }
            }
            await(() -> metrics(frontend).contains("sluice_workers_unhealthy{model=\"faulty\"} 1\n"));
            assertFalse(frontend.health().healthy(1));
            assertTrue(get(frontend, "/health").contains("\"unhealthy_workers\":1"));

            for (int i = 0; i < 6; i++) {
                HttpResponse<String> response = complete(frontend);
                assertEquals(200, response.statusCode(), response.body());
            }
            assertEquals(3, bad.completionsReceived(), "no request went to the unhealthy engine after its third 500");
            assertEquals(9, good.completionsReceived());

            assertEquals(0, frontend.health().probeNow(), "still failing: GET /v1/models answers 500");
            bad.failEverything(false);
            assertEquals(1, frontend.health().probeNow());
            for (int i = 0; i < 4; i++) {
                HttpResponse<String> response = complete(frontend);
                assertEquals(200, response.statusCode(), response.body());
            }
            assertEquals(5, bad.completionsReceived(), "the recovered engine takes its turns again");

            awaitLiveZero(frontend);
            String metrics = metrics(frontend);
            assertLine(metrics, "sluice_workers_unhealthy{model=\"faulty\"} 0");
            assertLine(metrics, "sluice_worker_health_transitions_total{model=\"faulty\",worker_id=\"1\","
                + "to=\"unhealthy\"} 1");
            assertLine(metrics, "sluice_worker_health_transitions_total{model=\"faulty\",worker_id=\"1\","
                + "to=\"healthy\"} 1");
            assertLine(metrics, "sluice_worker_health_transitions_total{model=\"faulty\",worker_id=\"0\","
                + "to=\"unhealthy\"} 0");
            assertLine(metrics, "sluice_requests_completed_total{model=\"faulty\"} 13");
            assertLine(metrics, "sluice_requests_aborted_total{model=\"faulty\"} 3");
            assertConsistent(frontend);
        }
    }

    @Test
    void shouldAnswerNoHealthyWorkersWhileTheOnlyEngineRefusesConnections() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        try (Frontend frontend = frontend(List.of("http://127.0.0.1:" + port), 2)) {
            for (int i = 0; i < 2; i++) {
                HttpResponse<String> response = complete(frontend);
                assertEquals(503, response.statusCode(), response.body());
                assertEquals("engine_unavailable", code(response));
            }
            await(() -> frontend.health().noneHealthy());

            HttpResponse<String> refused = complete(frontend);
            assertEquals(503, refused.statusCode(), refused.body());
            assertEquals("no_healthy_workers", code(refused));
            assertEquals("No healthy engine is available for this model: its engines are failing and being retried; "
                + "retry later", JSON.readTree(refused.body()).get("error").get("message").asText());
            long retryAfter = Long.parseLong(refused.headers().firstValue("retry-after").orElseThrow());
            assertTrue(retryAfter > 3500 && retryAfter <= 3600, "when the next probe is due: " + retryAfter);
            assertFalse(refused.body().contains(String.valueOf(port)), "the engine's address is not for clients");

            assertEquals(0, frontend.health().probeNow(), "the probe is refused too");
            assertTrue(frontend.health().noneHealthy());
            HttpResponse<String> ready = CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + frontend.port() + "/health")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(503, ready.statusCode(), "not ready: nothing can be placed; " + ready.body());
            assertEquals("unavailable", JSON.readTree(ready.body()).get("status").asText());
            assertEquals(200, CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + frontend.port()
                + "/live")).build(), HttpResponse.BodyHandlers.ofString()).statusCode(), "but alive");
            awaitLiveZero(frontend);
            String metrics = metrics(frontend);
            assertLine(metrics, "sluice_workers_unhealthy{model=\"faulty\"} 1");
            assertLine(metrics, "sluice_requests_rejected_total{model=\"faulty\",reason=\"no_endpoints\","
                + "status=\"503\"} 1");
            assertConsistent(frontend);
        }
    }

    private static HttpResponse<String> complete(Frontend frontend) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + frontend.port()
                + "/v1/completions")).header("content-type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + MODEL + "\",\"prompt\":\"hello\","
                + "\"max_tokens\":2}")).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String code(HttpResponse<String> response) throws Exception {
        return JSON.readTree(response.body()).get("error").get("code").asText();
    }

    private static String get(Frontend frontend, String path) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + frontend.port() + path)).build(),
            HttpResponse.BodyHandlers.ofString()).body();
    }

    private static String metrics(Frontend frontend) {
        try {
            return get(frontend, "/metrics");
        } catch (Exception e) {
            throw new AssertionError("GET /metrics failed", e);
        }
    }

    private static void assertLine(String text, String line) {
        assertTrue(text.lines().anyMatch(line::equals), () -> "missing line: " + line + "\n" + text);
    }

    /** Every request that reached admission ended exactly once: completed, rejected or aborted. */
    private static void assertConsistent(Frontend frontend) {
        String text = metrics(frontend);
        long arrived = counter(text, "sluice_requests_arrived_total");
        assertEquals(arrived, counter(text, "sluice_requests_completed_total")
            + counter(text, "sluice_requests_rejected_total") + counter(text, "sluice_requests_aborted_total"), text);
        assertEquals(frontend.router().stats().arrived(), arrived);
    }

    private static long counter(String text, String name) {
        return text.lines().filter(l -> l.startsWith(name + "{"))
            .mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    private static void awaitLiveZero(Frontend frontend) throws InterruptedException {
        await(() -> frontend.router().stats().live() == 0);
    }

    /** Waits for what another thread reports asynchronously (after the response), at most 10 s. */
    private static void await(BooleanSupplier condition) throws InterruptedException {
        long giveUp = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > giveUp) {
                throw new AssertionError("condition not reached in 10 s");
            }
            Thread.sleep(5);
        }
    }
}
