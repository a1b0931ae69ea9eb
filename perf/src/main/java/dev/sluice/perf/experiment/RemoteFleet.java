package dev.sluice.perf.experiment;

import dev.sluice.transport.engine.Engine;
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
import dev.sluice.transport.engine.telemetry.Exposition;
import dev.sluice.transport.engine.telemetry.PrometheusParser;
import dev.sluice.transport.frontend.EngineSetup;
import dev.sluice.transport.frontend.Frontend;
import dev.sluice.transport.frontend.WorkerHealthSettings;
import dev.sluice.transport.metrics.KvEventMetrics;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * N mock engines on loopback ({@link MockEngineServer}: the simulator core behind an OpenAI-compatible server), each
 * publishing its cache as vLLM's KV events over ZMQ with a replay socket, and the frontend's engine setup for them as
 * {@code serve} builds it from {@code --block-size B --engine-max-num-batched-tokens T --engine-url http://...
 * --engine-kv-events tcp://...,replay=tcp://...} (repeated per engine) with every other option at its default:
 * health tracking on, {@code /metrics} read every second, KV capacity taken from the engines' metrics.
 * {@link #close} stops the engines, the last first. Thread-safe for the readers; not for concurrent closes.
 */
final class RemoteFleet implements AutoCloseable {
    /** {@code serve}'s defaults for what the command line above leaves out (RemoteEngineOptions). */
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration FIRST_TOKEN_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration METRICS_INTERVAL = Duration.ofSeconds(1);
    private static final long DEFAULT_TOTAL_KV_BLOCKS = 16_384;
    private static final int MAX_NUM_SEQS = 256;
    /** {@code sluice mock-engine}'s default {@code --kv-events-buffer}. */
    private static final int REPLAY_BUFFER = 10_000;

    /** Counters summed over the fleet's engines and ranks, as their {@code /metrics} gives them. */
    record Counters(long queries, long hits, long preemptions, long running, long waiting) {
    }

    private final List<MockEngineServer> engines;
    private final String model;
    private final EngineSetup.Remote setup;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(CONNECT_TIMEOUT).build();

    private RemoteFleet(List<MockEngineServer> engines, String model, EngineSetup.Remote setup) {
        this.engines = engines;
        this.model = model;
        this.setup = setup;
    }

    /** Starts {@code size} mock engines of {@code engine}'s settings serving {@code model}; none left on failure. */
    static RemoteFleet start(int size, SimEngineContext engine, String model) {
        List<MockEngineServer> started = new ArrayList<>(size);
        try {
            for (int i = 0; i < size; i++) {
                started.add(MockEngineServer.start(new MockEngineSettings("127.0.0.1", 0, model, 16, engine,
                    new MockKvEvents("tcp://127.0.0.1:0", "tcp://127.0.0.1:0", "", REPLAY_BUFFER))));
            }
        } catch (RuntimeException | Error e) {
            closeAll(started);
            throw e;
        }
        EngineRuntimeConfig config = new EngineRuntimeConfig(DEFAULT_TOTAL_KV_BLOCKS, engine.blockSize(),
            engine.maxNumBatchedTokens(), MAX_NUM_SEQS, 1);
        List<HttpEngineSettings> urls = new ArrayList<>(size);
        Map<Integer, KvEventSource> kvEvents = new HashMap<>();
        for (int worker = 0; worker < size; worker++) {
            MockEngineServer server = started.get(worker);
            urls.add(HttpEngineSettings.of("http://127.0.0.1:" + server.port(), model, CONNECT_TIMEOUT,
                FIRST_TOKEN_TIMEOUT, config));
            kvEvents.put(worker, new KvEventSource("tcp://127.0.0.1:" + server.kvEvents().port(),
                "tcp://127.0.0.1:" + server.kvEvents().replayPort()));
        }
        return new RemoteFleet(List.copyOf(started), model, new EngineSetup.Remote(urls, WorkerHealthSettings.DEFAULT,
            new EngineMetricsSettings(METRICS_INTERVAL, CONNECT_TIMEOUT, true), kvEvents));
    }

    /** The frontend's engines: worker {@code i} is engine {@code i}. */
    EngineSetup.Remote setup() {
        return setup;
    }

    /**
     * Waits until {@code frontend} hears every engine's KV events and has a usable sample of every engine's metrics
     * (its KV capacity among them), as a frontend started before its traffic would. ZMQ subscriptions take effect
     * some time after they connect, and a batch published before that is lost to the subscriber, so each engine
     * publishes empty batches, which change nothing in the router, until one arrives.
     */
    void awaitConnected(Frontend frontend) {
        for (int worker = 0; worker < engines.size(); worker++) {
            ZmqKvEventPublisher publisher = engines.get(worker).kvEvents();
            KvEventMetrics.Worker counters = frontend.metrics().kvEvents().worker(worker);
            long[] queued = {publisher.sequences()};
            RemoteEnginesExperiment.await("worker " + worker + "'s KV-event subscription", () -> {
                if (publisher.sequences() == queued[0]) {
                    publisher.publish(new KvWireBatch(0, List.of(), KvWireBatch.NO_RANK));
                    queued[0]++;
                }
                return counters.sequence() >= 0;
            });
            RemoteEnginesExperiment.await("worker " + worker + "'s probe batches", () ->
                publisher.sequences() == queued[0] && counters.sequence() == queued[0] - 1);
            int id = worker;
            RemoteEnginesExperiment.await("worker " + worker + "'s first metrics sample",
                () -> !Double.isNaN(frontend.metrics().telemetry().lastSampleAgeSeconds(id)));
        }
    }

    /** The simulated workers inside the mock engines, in process: for the figures {@code /metrics} does not give. */
    List<Engine> engines() {
        List<Engine> workers = new ArrayList<>(engines.size());
        for (MockEngineServer engine : engines) {
            workers.add(engine.engine());
        }
        return workers;
    }

    /** The KV events {@code frontend} received from this fleet so far. */
    RemoteEnginesExperiment.KvEvents kvEvents(Frontend frontend) {
        long events = 0;
        long gaps = 0;
        long resets = 0;
        long dropped = 0;
        for (int worker = 0; worker < engines.size(); worker++) {
            KvEventMetrics.Worker counters = frontend.metrics().kvEvents().worker(worker);
            events += counters.events();
            gaps += counters.gaps();
            for (KvEventMetrics.Reset reason : KvEventMetrics.Reset.values()) {
                resets += counters.resets(reason);
            }
            for (KvEventMetrics.Drop reason : KvEventMetrics.Drop.values()) {
                dropped += counters.dropped(reason);
            }
        }
        return new RemoteEnginesExperiment.KvEvents(events, gaps, resets, dropped);
    }

    /** Whether no engine has a request running or waiting, by their {@code /metrics}. */
    boolean settled() {
        Counters counters = counters();
        return counters.running() == 0 && counters.waiting() == 0;
    }

    /**
     * The engines' counters, read from their {@code /metrics} as a monitoring system would.
     *
     * @throws IllegalStateException an engine's metrics cannot be read.
     */
    Counters counters() {
        long[] sums = new long[5];
        for (MockEngineServer engine : engines) {
            Exposition page = scrape(engine);
            sums[0] += sum(page, "vllm:prefix_cache_queries_total");
            sums[1] += sum(page, "vllm:prefix_cache_hits_total");
            sums[2] += sum(page, "vllm:num_preemptions_total");
            sums[3] += sum(page, "vllm:num_requests_running");
            sums[4] += sum(page, "vllm:num_requests_waiting");
        }
        return new Counters(sums[0], sums[1], sums[2], sums[3], sums[4]);
    }

    private Exposition scrape(MockEngineServer engine) {
        URI uri = URI.create("http://127.0.0.1:" + engine.port() + "/metrics");
        try {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(uri).timeout(CONNECT_TIMEOUT).GET()
                .build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("GET " + uri + " answered " + response.statusCode());
            }
            return PrometheusParser.parse(response.body());
        } catch (IOException e) {
            throw new IllegalStateException("GET " + uri + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted reading " + uri, e);
        }
    }

    /** The series' values for the served model, over every rank. */
    private long sum(Exposition page, String name) {
        List<Exposition.Sample> samples = page.named(name);
        if (samples.isEmpty()) {
            throw new IllegalStateException("the mock engine's /metrics has no " + name);
        }
        long total = 0;
        for (Exposition.Sample sample : samples) {
            if (model.equals(sample.label("model_name"))) {
                total += Math.round(sample.value());
            }
        }
        return total;
    }

    @Override
    public void close() {
        client.close();
        closeAll(engines);
    }

    private static void closeAll(List<MockEngineServer> servers) {
        for (int i = servers.size() - 1; i >= 0; i--) {
            servers.get(i).close();
        }
    }
}
