package dev.sluice.transport.frontend;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.host.CompositeObserver;
import dev.sluice.core.host.SchedulerObserver;
import dev.sluice.core.journal.JournalException;
import dev.sluice.core.journal.JournalHeader;
import dev.sluice.core.journal.JournalWriter;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.router.RouterStatistics;
import dev.sluice.transport.engine.Engine;
import dev.sluice.transport.metrics.PrometheusText;
import dev.sluice.transport.metrics.RouterMetrics;
import dev.sluice.transport.openai.CompletionRequest;
import dev.sluice.transport.openai.OpenAiJson;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.ServerResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.SystemNanoClock;

/**
 * The sluice frontend for one model: an admission router, its engines (the embedded simulated fleet or remote
 * OpenAI-compatible servers, see {@link EngineSetup}) and an
 * OpenAI-compatible Helidon server (virtual thread per request, {@code TCP_NODELAY}). A worker whose engine keeps
 * failing leaves the router until a probe finds it answering again ({@link WorkerHealth}). Close it to shut down
 * gracefully: arrivals and requests not yet dispatched are answered 503, dispatched requests get the grace period
 * to finish, then the engines' metrics scrapers ({@link EngineScrapers}), health probes, the server, the router and
 * the engines stop, in that order. Idempotent.
 */
public final class Frontend implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final FrontendSettings settings;
    private final ModelRouter router;
    private final EngineSet engines;
    private final RouterMetrics metrics;
    private final WorkerHealth health;
    private final EngineConfigErrors configErrors;
    private final EngineScrapers scrapers;
    private final WebServer server;
    private volatile boolean draining;
    private boolean closed;

    private final JournalWriter journal;

    private Frontend(FrontendSettings settings, ModelRouter router, EngineSet engines, RouterMetrics metrics,
                     WorkerHealth health, EngineScrapers scrapers, EngineConfigErrors configErrors,
                     WebServer server, JournalWriter journal) {
        this.journal = journal;
        this.settings = settings;
        this.router = router;
        this.engines = engines;
        this.metrics = metrics;
        this.health = health;
        this.configErrors = configErrors;
        this.scrapers = scrapers;
        this.server = server;
    }

    /**
     * Starts the journal, the router, the engines and the server; when this returns the port listens.
     *
     * @throws JournalException the journal cannot be opened (its message names the directory and the cause).
     */
    public static Frontend start(FrontendSettings settings) throws JournalException {
        // A copy: the caller's settings stay as given (a frontend can be started again from them).
        RouterContext context = settings.router().copy().model(settings.modelName())
            .blockSize(settings.engines().blockSize()).overloadStatus(settings.overloadStatus());
        RouterMetrics metrics = new RouterMetrics(settings.modelName(), context.profile(), settings.overloadStatus());
        JournalSetup setup = settings.journal();
        JournalWriter journal = setup == null ? null : JournalWriter.open(setup.context(), JournalHeader.of(context,
            setup.policySource(), setup.policyText(), setup.classifier(), setup.fallbackThreshold(),
            setup.fallbackPolicy()));
        // An observer already on the context (the demo's per-request tally) sees every decision after these two.
        SchedulerObserver extra = settings.router().observer();
        List<SchedulerObserver> observers = new ArrayList<>(List.of(metrics));
        if (journal != null) {
            observers.add(journal);
        }
        if (extra != SchedulerObserver.NONE) {
            observers.add(extra);
        }
        context.observer(observers.size() == 1 ? metrics : CompositeObserver.of(observers.toArray(
            new SchedulerObserver[0])));
        ModelRouter router;
        try {
            router = ModelRouter.start(context);
        } catch (RuntimeException e) {
            closeQuietly(journal);
            throw e;
        }
        metrics.attach(router::stats);
        metrics.attachJournal(journal);
        EngineSet engines = null;
        WorkerHealth health = null;
        EngineScrapers scrapers = null;
        try {
            engines = settings.engines().open(router::kvEvent, metrics.kvEvents());
            WorkerMembership membership = new WorkerMembership(router, engines.engines(), metrics.health());
            health = health(settings, membership, engines.engines());
            scrapers = EngineScrapers.start(settings.engines(), membership, metrics.telemetry());
            EngineConfigErrors configErrors = new EngineConfigErrors(addresses(engines.engines()));
            FrontendParts parts = new FrontendParts(settings, router, engines.engines(), settings.prompts(),
                settings.engines().blockSize(), metrics, health, configErrors);
            Frontend[] self = new Frontend[1];
            WebServer server = WebServer.builder()
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
                .routing(routing -> routing
                    .post("/v1/chat/completions", new CompletionsEndpoint(CompletionRequest.Endpoint.CHAT, parts))
                    .post("/v1/completions", new CompletionsEndpoint(CompletionRequest.Endpoint.COMPLETIONS, parts))
                    .get("/v1/models", (req, res) -> json(res, OpenAiJson.models(List.of(settings.modelName()),
                        System.currentTimeMillis() / 1000, "sluice")))
                    .get("/health", (req, res) -> self[0].health(res))
                    .get("/live", (req, res) -> json(res, "{\"status\":\"live\"}".getBytes(StandardCharsets.UTF_8)))
                    .get("/metrics", (req, res) -> {
                        res.header(HeaderNames.CONTENT_TYPE, PrometheusText.CONTENT_TYPE);
                        res.send(PrometheusText.render(List.of(metrics)));
                    }))
                .build()
                .start();
            if (!server.isRunning()) {
                throw new IllegalStateException("cannot listen on " + settings.host() + ":" + settings.port());
            }
            self[0] = new Frontend(settings, router, engines, metrics, health, scrapers, configErrors, server,
                journal);
            return self[0];
        } catch (RuntimeException e) {
            if (scrapers != null) {
                scrapers.close();
            }
            if (health != null) {
                health.close();
            }
            if (engines != null) {
                engines.close();
            }
            router.close();
            closeQuietly(journal);
            throw e;
        }
    }

    private static void closeQuietly(JournalWriter journal) {
        if (journal != null) {
            journal.close();
        }
    }

    /** Registers every worker in the router and tracks their engines' health (see {@link WorkerHealth}). */
    private static WorkerHealth health(FrontendSettings settings, WorkerMembership membership, List<Engine> engines) {
        membership.joinAll();
        WorkerHealthSettings health = settings.engines().health();
        return new WorkerHealth(health, addresses(engines), worker -> engines.get(worker).probe(), membership,
            SystemNanoClock.INSTANCE, WorkerHealth.timer(health, "sluice-health-" + settings.modelName()));
    }

    private static List<String> addresses(List<Engine> engines) {
        List<String> addresses = new ArrayList<>(engines.size());
        for (Engine engine : engines) {
            addresses.add(engine.address());
        }
        return addresses;
    }

    /**
     * 200 {@code healthy}, or 503 {@code draining} (closing) or {@code misconfigured} (no engine serves what sluice
     * asks it: see {@code configuration_errors}).
     */
    private void health(ServerResponse res) {
        RouterStatistics stats = router.stats();
        String status = draining ? "draining" : configErrors.all() ? "misconfigured" : "healthy";
        res.status(status.equals("healthy") ? Status.OK_200 : Status.SERVICE_UNAVAILABLE_503);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", status);
        body.put("model", settings.modelName());
        body.put("workers", engines.size());
        body.put("unhealthy_workers", health.unhealthyCount());
        body.put("misconfigured_workers", configErrors.count());
        List<String> errors = configErrors.describe();
        if (!errors.isEmpty()) {
            body.put("configuration_errors", errors);
        }
        body.put("live_requests", stats.live());
        body.put("queued", stats.queued());
        try {
            json(res, JSON.writeValueAsBytes(body));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render the health body", e);
        }
    }

    private static void json(ServerResponse res, byte[] body) {
        res.header(HeaderNames.CONTENT_TYPE, "application/json");
        res.send(body);
    }

    public int port() {
        return server.port();
    }

    public ModelRouter router() {
        return router;
    }

    /** The journal's directory, or {@code null} when not journaling. */
    public java.nio.file.Path journalDirectory() {
        return journal == null ? null : settings.journal().context().directory();
    }

    public RouterMetrics metrics() {
        return metrics;
    }

    /** The engines' health, by worker id. */
    WorkerHealth health() {
        return health;
    }

    /** The engines, by worker id. */
    public List<Engine> engines() {
        return engines.engines();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        draining = true;
        router.drain();
        long giveUp = System.nanoTime() + settings.gracePeriod().toNanos();
        while (router.stats().live() > 0 && System.nanoTime() < giveUp) {
            // Shutdown only: wait for dispatched streams to finish within the grace period.
            LockSupport.parkNanos(10_000_000L);
        }
        // No worker leaves or rejoins the router, nor changes its capacity, once it begins to close.
        scrapers.close();
        health.close();
        try {
            server.stop();
        } finally {
            try {
                router.close();
            } finally {
                try {
                    engines.close();
                } finally {
                    closeQuietly(journal);
                }
            }
        }
    }
}
