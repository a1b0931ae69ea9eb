package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.audit.JournalRun;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.host.RequestView;
import dev.sluice.core.host.SchedulerObserver;
import dev.sluice.core.journal.JournalContext;
import dev.sluice.core.journal.JournalRecord;
import dev.sluice.core.kv.KvEvent;
import dev.sluice.core.replay.DecisionComparison;
import dev.sluice.core.replay.ReplayVerifier;
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
import dev.sluice.transport.metrics.KvEventMetrics;
import dev.sluice.transport.testing.Await;
import dev.sluice.transport.testing.ScrapedMetrics;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve --engine-url A --engine-url B --engine-kv-events ... } end to end: two mock engines over HTTP on
 * loopback, each publishing its simulated cache as vLLM's KV events over ZMQ; prompts are cached on engine B by
 * sending them to B directly, so the router learns of them only through B's events. Ties between idle workers go
 * to worker 0 (A), so a request placed on B was placed by its cached prefix.
 */
class KvEventsSystemTest {
    private static final String MODEL = "sluice-mock";
    private static final int BLOCK = 16;
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final AtomicInteger PROMPTS = new AtomicInteger();

    private final Map<String, WorkerWithDpRank> placed = new ConcurrentHashMap<>();
    private final List<KvEvent> routerEvents = new ArrayList<>();
    private final List<AutoCloseable> open = new ArrayList<>();
    private MockEngineServer engineB;
    private Frontend frontend;

    @AfterEach
    void close() throws Exception {
        if (frontend != null) {
            frontend.close();
        }
        if (engineB != null) {
            engineB.close();
        }
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private static MockEngineServer engine(int httpPort, int kvPort, int replayPort) {
        return MockEngineServer.start(new MockEngineSettings("127.0.0.1", httpPort, MODEL, 16,
            new SimEngineContext().blockSize(BLOCK).numGpuBlocks(4096).speedupRatio(50),
            new MockKvEvents("tcp://127.0.0.1:" + kvPort, "tcp://127.0.0.1:" + replayPort, "", 100)));
    }

    private void start() throws Exception {
        start(null);
    }

    private void start(Path journal) throws Exception {
        MockEngineServer engineA = engine(0, 0, 0);
        open.add(engineA);
        engineB = engine(0, 0, 0);
        EngineRuntimeConfig config = new EngineRuntimeConfig(4096, BLOCK, 8192, 256, 1);
        List<HttpEngineSettings> engines = List.of(
            HttpEngineSettings.of("http://127.0.0.1:" + engineA.port(), MODEL, Duration.ofSeconds(2),
                Duration.ofSeconds(10), config),
            HttpEngineSettings.of("http://127.0.0.1:" + engineB.port(), MODEL, Duration.ofSeconds(2),
                Duration.ofSeconds(10), config));
        RouterContext router = new RouterContext().observer(new SchedulerObserver() {
            @Override
            public void onDispatched(long nowNs, RequestView request, WorkerWithDpRank worker) {
                placed.put(request.clientRequestId(), worker);
            }

            @Override
            public void onKvEvent(long nowNs, KvEvent event) {
                synchronized (routerEvents) {
                    routerEvents.add(event);
                }
            }
        });
        frontend = Frontend.start(new FrontendSettings("127.0.0.1", 0, MODEL, 1 << 20, 16, 529, null,
            Duration.ofSeconds(2), router, new EngineSetup.Remote(engines, WorkerHealthSettings.DEFAULT,
                EngineMetricsSettings.OFF, Map.of(0, source(engineA), 1, source(engineB))), journal == null ? null
                : new JournalSetup(new JournalContext(journal), "test", "", "default", OptionalDouble.empty(),
                    QueuePolicy.FCFS)));
        connect(engineA.kvEvents(), 0);
        connect(engineB.kvEvents(), 1);
    }

    private static KvEventSource source(MockEngineServer engine) {
        return new KvEventSource("tcp://127.0.0.1:" + engine.kvEvents().port(),
            "tcp://127.0.0.1:" + engine.kvEvents().replayPort());
    }

    private KvEventMetrics.Worker counters(int worker) {
        return frontend.metrics().kvEvents().worker(worker);
    }

    /** Empty batches, each once the one before is sent, until the subscriber has them all. */
    private void connect(ZmqKvEventPublisher publisher, int worker) {
        long[] queued = {publisher.sequences()};
        Await.until("worker " + worker + "'s subscription", () -> {
            if (publisher.sequences() == queued[0]) {
                publisher.publish(new KvWireBatch(0, List.of(), KvWireBatch.NO_RANK));
                queued[0]++;
            }
            return counters(worker).sequence() >= 0;
        });
        Await.until("worker " + worker + "'s probes", () -> publisher.sequences() == queued[0]
            && counters(worker).sequence() == queued[0] - 1);
    }

    /** Three blocks of distinct words: 48 tokens, and with one generated token no fourth block completes. */
    private static String prompt() {
        int n = PROMPTS.incrementAndGet();
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 3 * BLOCK; i++) {
            text.append(i == 0 ? "" : " ").append("w").append(n).append("x").append(i);
        }
        return text.toString();
    }

    private static HttpResponse<String> complete(int port, String prompt, String requestId) throws Exception {
        HttpResponse<String> response = CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
            + "/v1/completions")).header("content-type", "application/json").header("x-request-id", requestId)
            .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + MODEL + "\",\"prompt\":\"" + prompt
                + "\",\"max_tokens\":1}")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return response;
    }

    /** Caches {@code prompt} on engine B without the router, then waits until the router has B's stored run. */
    private void cacheOnB(String prompt) throws Exception {
        long before = storedOn(1);
        complete(engineB.port(), prompt, "direct-" + PROMPTS.incrementAndGet());
        Await.until("B's stored blocks in the router", () -> storedOn(1) > before);
    }

    private long storedOn(int worker) {
        synchronized (routerEvents) {
            return routerEvents.stream().filter(e -> e instanceof KvEvent.Stored && e.worker().workerId() == worker)
                .count();
        }
    }

    private WorkerWithDpRank placeThroughSluice(String prompt) throws Exception {
        String id = "via-sluice-" + PROMPTS.incrementAndGet();
        complete(frontend.port(), prompt, id);
        Await.until("the dispatch of " + id, () -> placed.containsKey(id));
        return placed.get(id);
    }

    @Test
    void shouldPlaceARequestOnTheEngineThatCachedItsPrefixAndReplayThePlacement(@TempDir Path journal)
        throws Exception {
        start(journal);
        String cached = prompt();
        cacheOnB(cached);

        assertEquals(new WorkerWithDpRank(1, 0), placeThroughSluice(cached));
        assertEquals(new WorkerWithDpRank(0, 0), placeThroughSluice(prompt()), "an uncached prompt: the tie");
        assertEquals(0, counters(1).gaps());
        Await.until("both requests end", () -> frontend.router().stats().completed() == 2);
        frontend.close();

        List<JournalRun> runs = JournalRun.read(journal, null);
        assertEquals(1, runs.size());
        assertTrue(runs.get(0).records().stream().anyMatch(r -> r instanceof JournalRecord.KvEventRecord k
            && k.event() instanceof KvEvent.Stored && k.event().worker().workerId() == 1), "B's events are recorded");
        DecisionComparison.Result replayed = ReplayVerifier.verify(runs.get(0));
        assertEquals(List.of(), replayed.differences());
        assertEquals(2, replayed.dispatches());
    }

    @Test
    void shouldRecoverADroppedBatchThroughTheReplaySocket() throws Exception {
        start();
        String missed = prompt();
        ZmqKvEventPublisher publisher = engineB.kvEvents();
        long sent = publisher.sequences();
        publisher.dropNext(1);
        complete(engineB.port(), missed, "direct-dropped");
        // The next prompt's blocks must come in a batch of their own, after the dropped one.
        Await.until("the dropped batch is out", () -> publisher.sequences() > sent);
        cacheOnB(prompt());

        Await.until("the replay", () -> counters(1).replays() == 1);
        assertEquals(1, counters(1).gaps());
        assertEquals(0, counters(1).resets(KvEventMetrics.Reset.GAP));
        assertEquals(new WorkerWithDpRank(1, 0), placeThroughSluice(missed));
        String metrics = ScrapedMetrics.of(frontend.port()).toString();
        for (String line : List.of("sluice_kv_event_gaps_total{model=\"sluice-mock\",worker_id=\"1\"} 1",
            "sluice_kv_event_replays_total{model=\"sluice-mock\",worker_id=\"1\"} 1",
            "sluice_kv_event_resets_total{model=\"sluice-mock\",worker_id=\"1\",reason=\"gap\"} 0",
            "sluice_kv_event_replays_total{model=\"sluice-mock\",worker_id=\"0\"} 0")) {
            assertTrue(metrics.contains(line + "\n"), () -> line + " in\n" + metrics);
        }
    }

    @Test
    void shouldForgetARestartedEnginesBlocks() throws Exception {
        start();
        String cached = prompt();
        cacheOnB(cached);
        assertEquals(new WorkerWithDpRank(1, 0), placeThroughSluice(cached));
        int http = engineB.port();
        int kv = engineB.kvEvents().port();
        int replay = engineB.kvEvents().replayPort();
        long clearedBefore = cleared(1);

        engineB.close();
        engineB = engine(http, kv, replay);
        Await.until("the restart is seen", () -> {
            try {
                complete(engineB.port(), prompt(), "warm-" + PROMPTS.incrementAndGet());
            } catch (Exception e) {
                throw new AssertionError("the restarted engine does not answer", e);
            }
            return counters(1).resets(KvEventMetrics.Reset.RESTART) == 1 && cleared(1) > clearedBefore;
        });

        assertEquals(new WorkerWithDpRank(0, 0), placeThroughSluice(cached), "B no longer holds it");
    }

    private long cleared(int worker) {
        synchronized (routerEvents) {
            return routerEvents.stream().filter(e -> e instanceof KvEvent.Cleared && e.worker().workerId() == worker)
                .count();
        }
    }
}
