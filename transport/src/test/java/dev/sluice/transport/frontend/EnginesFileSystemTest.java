package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.RequestView;
import dev.sluice.core.host.SchedulerObserver;
import dev.sluice.core.router.RouterContext;
import dev.sluice.transport.engine.EngineRuntimeConfig;
import dev.sluice.transport.engine.http.HttpEngineSettings;
import dev.sluice.transport.engine.kv.KvEventSource;
import dev.sluice.transport.engine.kv.KvWireBatch;
import dev.sluice.transport.engine.kv.ZmqKvEventPublisher;
import dev.sluice.transport.engine.mock.MockEngineServer;
import dev.sluice.transport.engine.mock.MockEngineSettings;
import dev.sluice.transport.engine.mock.MockKvEvents;
import dev.sluice.transport.engine.sim.SimEngineContext;
import dev.sluice.transport.engine.telemetry.EngineMetricsSettings;
import dev.sluice.transport.testing.Await;
import dev.sluice.transport.tokenize.WordPromptEncoder;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One frontend serving two models from an engines file, in front of mock engines over loopback HTTP: each model has
 * its own router and engines; engines added to the file take traffic (and their KV events reach the router), engines
 * removed take no new traffic while their running requests finish, and a file that is not valid changes nothing.
 * Reloads are driven by the test ({@link EnginesFileWatcher#poll}), not by the watcher's clock.
 */
class EnginesFileSystemTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final int BLOCK = 16;
    private static final EngineRuntimeConfig CONFIG = new EngineRuntimeConfig(4096, BLOCK, 8192, 256, 1);

    @TempDir
    Path dir;

    private final Map<String, MockEngineServer> engines = new HashMap<>();
    /** Request id to the worker it was placed on, per model. */
    private final Map<String, Map<String, Long>> placed = new ConcurrentHashMap<>();
    private final List<AutoCloseable> open = new ArrayList<>();
    private Path file;
    private Frontend frontend;
    private EnginesFileWatcher watcher;

    @AfterEach
    void close() throws Exception {
        if (frontend != null) {
            frontend.close();
        }
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    /** A mock engine named {@code name} (in the test) serving {@code model}. */
    private String engine(String name, String model) {
        return engine(name, model, null);
    }

    /** A mock engine that publishes its KV events over ZMQ, when {@code kvEvents} is given. */
    private String engine(String name, String model, MockKvEvents kvEvents) {
        MockEngineServer engine = MockEngineServer.start(new MockEngineSettings("127.0.0.1", 0, model, 16,
            new SimEngineContext().blockSize(BLOCK).numGpuBlocks(4096).speedupRatio(1), kvEvents));
        open.add(engine);
        engines.put(name, engine);
        return url(name);
    }

    private String url(String name) {
        return "http://127.0.0.1:" + engines.get(name).port();
    }

    /** What the test's file says: model to engine URLs; an engine that publishes KV events has them listed. */
    private void write(Map<String, List<String>> models) throws Exception {
        StringBuilder yaml = new StringBuilder("models:\n");
        models.forEach((model, urls) -> {
            yaml.append("  ").append(model).append(":\n    block_size: ").append(BLOCK).append("\n    engines:\n");
            for (String url : urls) {
                yaml.append("      - url: ").append(url).append('\n');
                engines.values().stream().filter(e -> url.equals("http://127.0.0.1:" + e.port())
                    && e.kvEvents() != null).findFirst().ifPresent(e -> yaml.append("        kv_events: ")
                    .append("tcp://127.0.0.1:").append(e.kvEvents().port()).append('\n'));
            }
        });
        Files.writeString(file, yaml);
    }

    /** The engines of a model as the CLI makes them, short of the options it has no need of here. */
    private static List<RemoteEngine> remote(EnginesFile.Model model) {
        return model.engines().stream().map(engine -> {
            RemoteEngine remote = RemoteEngine.of(HttpEngineSettings.of(engine.url().toString(), model.engineModel(),
                Duration.ofSeconds(2), Duration.ofSeconds(30), CONFIG), false);
            return engine.kvEvents().map(endpoint -> remote.withKvEvents(new KvEventSource(endpoint, null)))
                .orElse(remote);
        }).toList();
    }

    private ServedModel served(EnginesFile.Model model) {
        Map<String, Long> byRequest = placed.computeIfAbsent(model.name(), name -> new ConcurrentHashMap<>());
        // Round robin: which worker a request goes to says which engines are in the router, whatever their load.
        RouterContext router = new RouterContext().workerSelector(RouterModes.ROUND_ROBIN.selector(null))
            .observer(new SchedulerObserver() {
            @Override
            public void onDispatched(long nowNs, RequestView request, WorkerWithDpRank worker) {
                byRequest.put(request.clientRequestId(), worker.workerId());
            }
            });
        return new ServedModel(model.name(), router, new EngineSetup.Remote(WorkerHealthSettings.DEFAULT,
            EngineMetricsSettings.OFF, BLOCK, remote(model)), null, WordPromptEncoder.INSTANCE);
    }

    private void start(Map<String, List<String>> models) throws Exception {
        file = dir.resolve("engines.yaml");
        write(models);
        List<ServedModel> served = new ArrayList<>();
        for (EnginesFile.Model model : EnginesFile.read(file).models().values()) {
            served.add(served(model));
        }
        frontend = Frontend.start(new FrontendSettings("127.0.0.1", 0, 1 << 20, 16, 529, null, Duration.ofSeconds(5),
            TrustedSources.ANY, served));
        watcher = EnginesFileWatcher.manual(file, frontend, (model, setup) -> remote(model));
        open.add(watcher);
    }

    private HttpRequest.Builder post(String path, String body) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + frontend.port() + path))
            .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
    }

    /** A short completion of {@code model}; returns the worker it was placed on. */
    private long complete(String model, String id) throws Exception {
        HttpResponse<String> response = CLIENT.send(post("/v1/completions", "{\"model\":\"" + model
            + "\",\"prompt\":\"say something " + id + "\",\"max_tokens\":2}").header("x-request-id", id).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return placed.get(model).get(id);
    }

    private JsonNode get(String path) throws Exception {
        return JSON.readTree(CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + frontend.port()
            + path)).build(), HttpResponse.BodyHandlers.ofString()).body());
    }

    @Test
    void shouldServeEachModelOfTheFileWithItsOwnEngines() throws Exception {
        start(Map.of("alpha", List.of(engine("a", "alpha")), "beta", List.of(engine("b", "beta"))));

        List<String> models = StreamSupport.stream(get("/v1/models").get("data").spliterator(), false)
            .map(model -> model.get("id").asText()).sorted().toList();
        assertEquals(List.of("alpha", "beta"), models);
        assertEquals(0, complete("alpha", "to-alpha"));
        assertEquals(0, complete("beta", "to-beta"));
        HttpResponse<String> unknown = CLIENT.send(post("/v1/completions", "{\"model\":\"gamma\",\"prompt\":\"x\"}")
            .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(404, unknown.statusCode());
        assertTrue(unknown.body().contains("this frontend serves `alpha`, `beta`")
            || unknown.body().contains("this frontend serves `beta`, `alpha`"), unknown.body());
        JsonNode health = get("/health");
        assertEquals("healthy", health.get("status").asText());
        assertEquals(2, health.get("models").size());
    }

    @Test
    void shouldSendNewTrafficToAnAddedEngineAndNoneToARemovedOneWhileItsRequestFinishes() throws Exception {
        start(Map.of("alpha", List.of(engine("a", "alpha"), engine("b", "alpha"))));
        ModelServing alpha = frontend.model("alpha");

        // A long stream on each engine: worker 0 is a, worker 1 is b.
        HttpResponse<InputStream> onA = stream("long-a");
        HttpResponse<InputStream> onB = stream("long-b");
        assertEquals(Map.of("long-a", 0L, "long-b", 1L), Map.copyOf(placed.get("alpha")));
        BufferedReader readerA = reader(onA);
        BufferedReader readerB = reader(onB);
        readEvents(readerB, 3);

        write(Map.of("alpha", List.of(url("a"), engine("c", "alpha", new MockKvEvents("tcp://127.0.0.1:0", null, "",
            10)))));
        watcher.poll();

        assertEquals(List.of(0, 2), alpha.engines().active(), "b left, c joined as a new worker");
        ZmqKvEventPublisher events = engines.get("c").kvEvents();
        long[] sent = {events.sequences()};
        Await.until("the KV events of the engine that joined reach its router", () -> {
            if (events.sequences() == sent[0]) {
                events.publish(new KvWireBatch(0, List.of(), KvWireBatch.NO_RANK));
                sent[0]++;
            }
            return alpha.metrics().kvEvents().worker(2).sequence() >= 0;
        });
        assertEquals(1, engines.get("b").engine().load(0).runningRequests(), "b's stream still runs");
        readEvents(readerB, 3);
        for (int i = 0; i < 4; i++) {
            assertTrue(complete("alpha", "after-" + i) != 1, "nothing new goes to the engine that left");
        }
        assertTrue(placed.get("alpha").containsValue(2L), "the engine that joined takes traffic");

        watcher.poll();
        assertFalse(alpha.engines().retiredAllStopped(), "b is not stopped while its request runs");
        readerB.close();
        readerA.close();
        Await.until("b's request ends", () -> engines.get("b").engine().load(0).runningRequests() == 0);
        Await.until("b is stopped once idle", () -> {
            watcher.poll();
            return alpha.engines().retiredAllStopped();
        });
        assertEquals(0, alpha.health().unhealthyCount());
    }

    @Test
    void shouldKeepTheEnginesWhenTheChangedFileIsNotValid() throws Exception {
        start(Map.of("alpha", List.of(engine("a", "alpha"))));

        Files.writeString(file, "models:\n  alpha:\n    engines:\n      - url: ftp://nowhere\n");
        assertFalse(watcher.reload());
        write(Map.of("alpha", List.of(url("a")), "beta", List.of(engine("b", "beta"))));
        assertTrue(watcher.reload(), "valid; the new model is logged as needing a restart");

        assertEquals(List.of(0), frontend.model("alpha").engines().active());
        assertEquals(null, frontend.model("beta"));
        assertEquals(0, complete("alpha", "still-served"));
    }

    @Test
    void shouldListAnEngineThatServesAnotherModelInTheHealth() throws Exception {
        start(Map.of("alpha", List.of(engine("a", "alpha"))));

        write(Map.of("alpha", List.of(url("a"), engine("wrong", "not-alpha"))));
        watcher.poll();

        Await.until("the joining engine's model is checked", () -> alpha().configErrors().count() == 1);
        JsonNode health = get("/health");
        assertEquals("healthy", health.get("status").asText(), "the other engine serves alpha");
        String error = health.get("configuration_errors").get(0).asText();
        assertTrue(error.startsWith("worker 1 (" + url("wrong") + "): the engine serves not-alpha, not `alpha`"),
            error);
    }

    private ModelServing alpha() {
        return frontend.model("alpha");
    }

    private HttpResponse<InputStream> stream(String id) throws Exception {
        return CLIENT.send(post("/v1/completions", "{\"model\":\"alpha\",\"prompt\":\"keep talking " + id
            + "\",\"max_tokens\":20000,\"stream\":true}").header("x-request-id", id).build(),
            HttpResponse.BodyHandlers.ofInputStream());
    }

    private static BufferedReader reader(HttpResponse<InputStream> response) {
        assertEquals(200, response.statusCode());
        return new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8));
    }

    private static void readEvents(BufferedReader reader, int count) throws Exception {
        int events = 0;
        while (events < count) {
            String line = reader.readLine();
            assertTrue(line != null, "the stream goes on");
            if (line.startsWith("data: ")) {
                events++;
            }
        }
    }
}
