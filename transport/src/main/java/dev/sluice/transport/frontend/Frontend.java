package dev.sluice.transport.frontend;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.journal.JournalException;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.core.router.RouterStatistics;
import dev.sluice.transport.engine.Engine;
import dev.sluice.transport.cluster.ReplicaCluster;
import dev.sluice.transport.metrics.PrometheusText;
import dev.sluice.transport.metrics.RouterMetrics;
import dev.sluice.transport.openai.CompletionRequest;
import dev.sluice.transport.openai.OpenAiJson;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.ServerResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * The sluice frontend: one OpenAI-compatible HTTP/1.1 server ({@code TCP_NODELAY}; on Netty's event loops,
 * {@link LoopServer}, or Helidon's with a virtual thread per request, as {@link FrontendSettings#io} says) for
 * one or several models, each with its own admission router and engines ({@link ModelServing}: the embedded
 * simulated fleet or remote OpenAI-compatible servers, which may join and leave while it runs). A worker whose
 * engine keeps failing leaves its router until a probe finds it answering again ({@link WorkerHealth}). Close it to
 * shut down gracefully: arrivals and requests not yet dispatched are answered 503, dispatched requests get the
 * grace period to finish; then the engines' KV-event subscribers, metrics scrapers and health probes stop, the
 * requests still running are stopped, each client getting a 503 {@code shutting_down} error (an error event on a
 * stream), then the server and each model's router, engines and journal stop, in that order. Idempotent.
 */
public final class Frontend implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String JSON_TYPE = "application/json";
    /** How long the requests stopped at the end of the grace period have to send their clients the error. */
    private static final java.time.Duration STOPPED_ANSWERS = java.time.Duration.ofSeconds(5);

    private final FrontendSettings settings;
    private final List<ModelServing> models;
    private final FrontendServer server;
    private final LargeBodyGate largeBodies;
    private volatile boolean draining;
    private boolean closed;

    private Frontend(FrontendSettings settings, List<ModelServing> models, FrontendServer server,
                     LargeBodyGate largeBodies) {
        this.settings = settings;
        this.models = List.copyOf(models);
        this.server = server;
        this.largeBodies = largeBodies;
    }

    /**
     * Helidon's own idle-connection check, a backstop behind the guard's: it reads a clock that moves once a second,
     * so it never runs below one.
     */
    private static java.time.Duration helidonIdle(ConnectionLimits limits) {
        java.time.Duration second = java.time.Duration.ofSeconds(1);
        return limits.idleTimeout().compareTo(second) < 0 ? second : limits.idleTimeout();
    }

    /**
     * Starts each model's journal, router and engines, then the server; when this returns the port listens.
     *
     * @throws JournalException a journal cannot be opened (its message names the directory and the cause).
     */
    public static Frontend start(FrontendSettings settings) throws JournalException {
        return start(settings, null);
    }

    /**
     * As {@link #start(FrontendSettings)}, as one replica of a fleet when {@code cluster} is not null: each model's
     * router shares its bookings through it, and {@code /health} and {@code /metrics} show the NATS connection and
     * the replicas seen. The caller closes the cluster after the frontend.
     */
    public static Frontend start(FrontendSettings settings, ReplicaCluster cluster) throws JournalException {
        SafeLogFilter.install();
        List<ModelServing> models = new ArrayList<>(settings.models().size());
        try {
            for (ServedModel model : settings.models()) {
                models.add(ModelServing.start(model, settings.overloadStatus(), cluster));
            }
            List<String> names = new ArrayList<>(models.size());
            List<RouterMetrics> metrics = new ArrayList<>(models.size());
            for (ModelServing model : models) {
                names.add(model.name());
                metrics.add(model.metrics());
            }
            Frontend[] self = new Frontend[1];
            LargeBodyGate largeBodies = new LargeBodyGate(settings.largeBodies(), settings.overloadStatus());
            LoopServer.Pages pages = path -> switch (path) {
                case "/v1/models" -> new LoopServer.Page(200, JSON_TYPE, OpenAiJson.models(names,
                    System.currentTimeMillis() / 1000, "sluice"));
                case "/health" -> self[0].health(cluster);
                case "/live" -> new LoopServer.Page(200, JSON_TYPE, "{\"status\":\"live\"}".getBytes(
                    StandardCharsets.UTF_8));
                case "/metrics" -> new LoopServer.Page(200, PrometheusText.CONTENT_TYPE, (cluster == null
                    ? PrometheusText.render(metrics) : PrometheusText.render(metrics) + cluster.metricsText())
                    .getBytes(StandardCharsets.UTF_8));
                default -> null;
            };
            FrontendServer server = settings.io() == FrontendSettings.Io.LOOPS
                ? LoopServer.start(settings, largeBodies, models, pages)
                : helidon(settings, models, largeBodies, pages);
            self[0] = new Frontend(settings, models, server, largeBodies);
            return self[0];
        } catch (JournalException | RuntimeException e) {
            for (int i = models.size() - 1; i >= 0; i--) {
                models.get(i).close();
            }
            throw e;
        }
    }

    /** Helidon's server, answering the pages and the completions; its guard stops with it. */
    private static FrontendServer helidon(FrontendSettings settings, List<ModelServing> models,
                                          LargeBodyGate largeBodies, LoopServer.Pages pages) {
        ConnectionGuard guard = new ConnectionGuard(settings.connections());
        WebServer server;
        try {
            server = WebServer.builder()
                .host(settings.host())
                .port(settings.port())
                .shutdownHook(false)
                // Bodies over our limit are read and dropped before the 413 (RequestBody); far over it, Helidon cuts.
                .maxPayloadSize(RequestBody.ceiling(settings.maxBodyBytes()))
                // Helidon's own answers (unparsable requests, oversized headers or bodies) as our JSON errors.
                .errorHandling(TransportErrors.errorHandling())
                .directHandlers(TransportErrors.directHandlers())
                // Without TCP_NODELAY, Nagle and delayed ACKs hold each SSE event back ~40 ms.
                .connectionOptions(options -> options.tcpNoDelay(true))
                // HTTP/1 through the guard only (limits, read timeouts, HTTP/1.0): not Helidon's discovered selector.
                .protocolsDiscoverServices(false)
                .addConnectionSelector(guard)
                // Helidon takes a permit before accept(): past it, connections wait in the backlog, never EMFILE.
                .maxTcpConnections(guard.acceptLimit())
                .idleConnectionTimeout(helidonIdle(settings.connections()))
                .idleConnectionPeriod(helidonIdle(settings.connections()))
                .routing(routing -> routing
                    .post("/v1/chat/completions", new CompletionsEndpoint(CompletionRequest.Endpoint.CHAT, settings,
                        models, largeBodies))
                    .post("/v1/completions", new CompletionsEndpoint(CompletionRequest.Endpoint.COMPLETIONS,
                        settings, models, largeBodies))
                    .get("/v1/models", (req, res) -> send(res, pages.get("/v1/models")))
                    .get("/health", (req, res) -> send(res, pages.get("/health")))
                    .get("/live", (req, res) -> send(res, pages.get("/live")))
                    .get("/metrics", (req, res) -> send(res, pages.get("/metrics"))))
                .build()
                .start();
        } catch (RuntimeException e) {
            guard.close();
            throw e;
        }
        if (!server.isRunning()) {
            guard.close();
            throw new ListenFailure(settings.host(), settings.port());
        }
        return new FrontendServer() {
            @Override
            public int port() {
                return server.port();
            }

            @Override
            public void close() {
                try {
                    server.stop();
                } finally {
                    guard.close();
                }
            }
        };
    }

    private static void send(ServerResponse res, LoopServer.Page page) {
        res.status(Status.create(page.status()));
        res.header(HeaderNames.CONTENT_TYPE, page.contentType());
        res.send(page.body());
    }

    /** The server could not listen on the address it was given: not this machine's, or the port is taken. */
    public static final class ListenFailure extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        ListenFailure(String host, int port) {
            super("cannot listen on " + host + ":" + port + ": the address is not one of this machine's, or the "
                + "port is taken");
        }
    }

    /**
     * Readiness: 200 {@code healthy}, or 503 {@code draining} (closing), {@code unavailable} (no model has a worker to
     * place a request on: every engine is unhealthy, or none is left) or {@code misconfigured} (no engine of any
     * model serves what sluice asks it: see {@code configuration_errors}). With several models, each has its own
     * entry under {@code models}, and the frontend is healthy while one of them is. {@code /live} stays 200. As a
     * replica of a fleet, {@code nats} says the connection's state and the replicas seen (the status does not
     * depend on NATS: a replica cut off from it serves on its own view).
     */
    private LoopServer.Page health(ReplicaCluster cluster) {
        List<Map<String, Object>> entries = new ArrayList<>(models.size());
        boolean allMisconfigured = true;
        boolean anyHealthy = false;
        for (ModelServing model : models) {
            Map<String, Object> entry = health(model);
            allMisconfigured &= entry.get("status").equals("misconfigured");
            anyHealthy |= entry.get("status").equals("healthy");
            entries.add(entry);
        }
        String status = draining ? "draining" : anyHealthy ? "healthy" : allMisconfigured ? "misconfigured"
            : "unavailable";
        Map<String, Object> body = new LinkedHashMap<>();
        if (entries.size() == 1) {
            body.putAll(entries.getFirst());
            body.put("status", status);
        } else {
            body.put("status", status);
            body.put("models", entries);
        }
        if (cluster != null) {
            body.put("nats", cluster.health());
        }
        try {
            return new LoopServer.Page(status.equals("healthy") ? 200 : 503, JSON_TYPE, JSON.writeValueAsBytes(body));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render the health body", e);
        }
    }

    private static Map<String, Object> health(ModelServing model) {
        RouterStatistics stats = model.router().stats();
        EngineConfigErrors configErrors = model.configErrors();
        Map<String, Object> entry = new LinkedHashMap<>();
        boolean placeable = model.engines().size() > 0 && !model.health().noneHealthy();
        entry.put("status", configErrors.all() ? "misconfigured" : placeable ? "healthy" : "unavailable");
        entry.put("model", model.name());
        entry.put("workers", model.engines().size());
        entry.put("unhealthy_workers", model.health().unhealthyCount());
        entry.put("misconfigured_workers", configErrors.count());
        List<String> errors = configErrors.describe();
        if (!errors.isEmpty()) {
            entry.put("configuration_errors", errors);
        }
        entry.put("live_requests", stats.live());
        entry.put("queued", stats.queued());
        return entry;
    }

    public int port() {
        return server.port();
    }

    /** The models served, in the settings' order. */
    List<ModelServing> models() {
        return models;
    }

    /** The model named {@code name}, or {@code null} when it is not served. */
    ModelServing model(String name) {
        for (ModelServing model : models) {
            if (model.name().equals(name)) {
                return model;
            }
        }
        return null;
    }

    /** The names of the models served, in the settings' order. */
    public List<String> modelNames() {
        List<String> names = new ArrayList<>(models.size());
        for (ModelServing model : models) {
            names.add(model.name());
        }
        return names;
    }

    /** The router of the model named {@code name}. */
    public ModelRouter router(String name) {
        return required(name).router();
    }

    /** The metrics of the model named {@code name}. */
    public RouterMetrics metrics(String name) {
        return required(name).metrics();
    }

    private ModelServing required(String name) {
        ModelServing model = model(name);
        if (model == null) {
            throw new IllegalArgumentException("model " + name + " is not served");
        }
        return model;
    }

    /** The first model's router (with one model, the router). */
    public ModelRouter router() {
        return models.getFirst().router();
    }

    /** The first model's journal directory, or {@code null} when it is not journaled. */
    public Path journalDirectory() {
        ModelServing first = models.getFirst();
        return first.journal() == null ? null : first.model().journal().context().directory();
    }

    /** The first model's metrics. */
    public RouterMetrics metrics() {
        return models.getFirst().metrics();
    }

    /** The first model's engines' health, by worker id. */
    WorkerHealth health() {
        return models.getFirst().health();
    }

    /** The first model's engines, by worker id (those that left too). */
    public List<Engine> engines() {
        return models.getFirst().engines().engines();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        draining = true;
        for (ModelServing model : models) {
            model.router().drain();
        }
        long giveUp = System.nanoTime() + settings.gracePeriod().toNanos();
        while (live() > 0 && System.nanoTime() < giveUp) {
            // Shutdown only: wait for dispatched streams to finish within the grace period.
            LockSupport.parkNanos(10_000_000L);
        }
        for (ModelServing model : models) {
            model.stopWatching();
        }
        if (live() > 0) {
            // Each client still being answered gets an error, not a connection cut mid-answer.
            for (ModelServing model : models) {
                model.stopRunning();
            }
            long ends = System.nanoTime() + STOPPED_ANSWERS.toNanos();
            while (answering() > 0 && System.nanoTime() < ends) {
                LockSupport.parkNanos(10_000_000L);
            }
        }
        try {
            server.close();
        } finally {
            for (ModelServing model : models) {
                model.close();
            }
        }
    }

    private long answering() {
        long answering = 0;
        for (ModelServing model : models) {
            answering += model.answering().get();
        }
        return answering;
    }

    private long live() {
        long live = 0;
        for (ModelServing model : models) {
            live += model.router().stats().live();
        }
        return live;
    }

    /** The turns large request bodies take (for tests: how many are free). */
    LargeBodyGate largeBodies() {
        return largeBodies;
    }
}
