package dev.sluice.transport.engine.mock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.transport.engine.sim.SimEngineContext;
import dev.sluice.transport.engine.telemetry.EngineMetricsReader;
import dev.sluice.transport.engine.telemetry.EngineSample;
import dev.sluice.transport.engine.telemetry.Exposition;
import dev.sluice.transport.engine.telemetry.PrometheusParser;
import dev.sluice.transport.engine.telemetry.ScrapeException;
import dev.sluice.transport.testing.Await;
import dev.sluice.transport.testing.DirectLoad;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The mock engine's {@code GET /metrics}: its simulated worker's real load, under vLLM's names, over loopback. */
class MockMetricsPageTest {
    private static final String MODEL = "weir-7b";

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private MockEngineServer server;

    @AfterEach
    void stop() {
        client.close();
        if (server != null) {
            server.close();
        }
    }

    private MockEngineServer start(SimEngineContext engine) {
        server = MockEngineServer.start(new MockEngineSettings("127.0.0.1", 0, MODEL, 16, engine));
        return server;
    }

    private String baseUrl() {
        return "http://127.0.0.1:" + server.port();
    }

    private HttpResponse<String> metrics() throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/metrics")).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    }

    private EngineSample sample() throws Exception {
        Exposition exposition = PrometheusParser.parse(metrics().body());
        assertEquals(List.of(), exposition.errors());
        try {
            return EngineMetricsReader.read(exposition, MODEL, new ArrayList<>());
        } catch (ScrapeException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    @Test
    void shouldPublishAnIdleWorkerUnderVllmsNamesPerRank() throws Exception {
        start(new SimEngineContext().numGpuBlocks(300).blockSize(32).dpSize(2));

        HttpResponse<String> response = metrics();

        assertEquals(200, response.statusCode());
        assertTrue(response.headers().firstValue("content-type").orElseThrow().startsWith("text/plain; version=0.0.4"));
        assertTrue(response.body().contains("vllm:num_requests_running{engine=\"1\",model_name=\"weir-7b\"} 0.0\n"),
            response.body());
        assertEquals(List.of(new EngineSample.Rank(0, 0, 0, 0.0, 300L * 32, 32),
            new EngineSample.Rank(1, 0, 0, 0.0, 300L * 32, 32)), sample().ranks());
    }

    @Test
    void shouldPublishTheRequestsAnotherClientRunsAndQueues() throws Exception {
        start(new SimEngineContext().numGpuBlocks(256).blockSize(16).maxNumSeqs(1).speedupRatio(1));
        AtomicReference<EngineSample.Rank> seen = new AtomicReference<>();
        // 3000 tokens take about 20 s at speedup 1 and fit the 4096 tokens of KV cache with their prompt.
        DirectLoad load = DirectLoad.start(baseUrl(), MODEL, 3, 3000);
        try {
            Await.until("one request running and two waiting in /metrics", () -> {
                seen.set(sampleQuietly());
                return seen.get().running() == 1 && seen.get().waiting() == 2 && seen.get().kvUsage() > 0;
            });
        } finally {
            load.close();
        }
        EngineSample.Rank loaded = seen.get();
        assertEquals(server.engine().runtimeConfig().totalKvBlocks() * 16, loaded.kvCapacityTokens());
        Await.until("idle again once the client hung up", () -> sampleQuietly().running() == 0);
    }

    @Test
    void shouldCountPrefixCacheQueriesAndHitsInTokens() throws Exception {
        start(new SimEngineContext().blockSize(16).speedupRatio(100));
        StringBuilder prompt = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            prompt.append(i == 0 ? "" : " ").append("word").append(i);
        }
        complete(prompt.toString());
        complete(prompt.toString());

        String body = metrics().body();
        assertTrue(body.contains("# TYPE vllm:prefix_cache_queries_total counter\n"), body);
        assertTrue(body.contains("vllm:prefix_cache_queries_total{engine=\"0\",model_name=\"weir-7b\"} 80.0\n"),
            "both 40-token prompts were looked up: " + body);
        assertTrue(body.contains("vllm:prefix_cache_hits_total{engine=\"0\",model_name=\"weir-7b\"} 32.0\n"),
            "the second found the first's two full blocks of 16: " + body);
        assertEquals(List.of(), PrometheusParser.parse(body).errors());
    }

    /** One non-streaming completion, which answers once the engine has finished it. */
    private void complete(String prompt) throws Exception {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/v1/completions"))
            .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"model\":\""
                + MODEL + "\",\"prompt\":\"" + prompt + "\",\"max_tokens\":1}")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
    }

    private EngineSample.Rank sampleQuietly() {
        try {
            return sample().ranks().getFirst();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
