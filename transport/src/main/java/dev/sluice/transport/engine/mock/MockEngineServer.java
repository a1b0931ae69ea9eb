package dev.sluice.transport.engine.mock;

import dev.sluice.core.kv.KvEventSink;
import dev.sluice.transport.engine.Engine;
import dev.sluice.transport.engine.EngineLoad;
import dev.sluice.transport.engine.kv.ZmqKvEventPublisher;
import dev.sluice.transport.engine.sim.EngineKvListener;
import dev.sluice.transport.engine.sim.SimulatedFleet;
import dev.sluice.transport.openai.CompletionRequest;
import dev.sluice.transport.openai.CompletionRequestReader;
import dev.sluice.transport.openai.OpenAiException;
import dev.sluice.transport.openai.OpenAiJson;
import dev.sluice.transport.tokenize.WordPromptEncoder;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.ServerResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The mock engine: one simulated worker driven in real time behind an OpenAI-compatible Helidon server
 * ({@code POST /v1/chat/completions}, {@code POST /v1/completions}, {@code GET /v1/models}, {@code GET /health},
 * which also reports the requests running and waiting in the worker, so that a test in another process can see
 * them end, and {@code GET /metrics}, the worker's load under vLLM's metric names, see {@link MockMetricsPage}).
 * Prompts are tokenized with the word tokenizer ({@link WordPromptEncoder}); token-id prompts are taken as they
 * are. The worker's runner thread produces tokens; Helidon's virtual threads serve requests. With
 * {@link MockEngineSettings#kvEvents} the worker's cache is published as vLLM's KV events over ZMQ
 * ({@link ZmqKvEventPublisher}: every rank on the one socket, each batch naming its rank). {@link #close} stops the
 * server, then the worker, then the publisher. Idempotent.
 */
public final class MockEngineServer implements AutoCloseable {
    private final SimulatedFleet fleet;
    private final WebServer server;
    private final ZmqKvEventPublisher kvEvents;
    private boolean closed;

    private MockEngineServer(SimulatedFleet fleet, WebServer server, ZmqKvEventPublisher kvEvents) {
        this.fleet = fleet;
        this.server = server;
        this.kvEvents = kvEvents;
    }

    /**
     * Starts the worker and the server; when this returns the port is listening.
     *
     * @throws IllegalStateException if the server cannot listen (e.g. the port is taken); nothing is left running.
     */
    public static MockEngineServer start(MockEngineSettings settings) {
        MockKvEvents wire = settings.kvEvents();
        ZmqKvEventPublisher kvEvents = wire == null ? null : ZmqKvEventPublisher.start(wire.endpoint(),
            wire.replayEndpoint(), wire.topic(), wire.bufferSteps());
        SimulatedFleet fleet;
        try {
            fleet = SimulatedFleet.realTime(settings.engine(), 1, KvEventSink.NONE, kvEvents == null
                ? EngineKvListener.NONE : new WireKvListener(kvEvents, settings.engine().blockSize()));
        } catch (RuntimeException e) {
            closeQuietly(kvEvents);
            throw e;
        }
        try {
            Engine engine = fleet.worker(0);
            CompletionRequestReader reader = new CompletionRequestReader(settings.defaultMaxTokens());
            String model = settings.modelName();
            byte[] models = OpenAiJson.models(List.of(model), System.currentTimeMillis() / 1000, "sluice");
            WebServer server = WebServer.builder()
                .host(settings.host())
                .port(settings.port())
                .shutdownHook(false)
                // Without TCP_NODELAY, Nagle and delayed ACKs hold each SSE event back ~40 ms.
                .connectionOptions(options -> options.tcpNoDelay(true))
                .routing(routing -> routing
                    .post("/v1/chat/completions", new CompletionsHandler(CompletionRequest.Endpoint.CHAT, engine,
                        WordPromptEncoder.INSTANCE, reader, model))
                    .post("/v1/completions", new CompletionsHandler(CompletionRequest.Endpoint.COMPLETIONS, engine,
                        WordPromptEncoder.INSTANCE, reader, model))
                    .get("/v1/models", (req, res) -> sendJson(res, models))
                    .get("/health", (req, res) -> sendJson(res, health(engine)))
                    .get("/metrics", (req, res) -> {
                        res.header(HeaderNames.CONTENT_TYPE, MockMetricsPage.CONTENT_TYPE);
                        res.send(MockMetricsPage.render(engine, model));
                    }))
                .build()
                .start();
            // Helidon logs a failed bind and returns a stopped server instead of throwing.
            if (!server.isRunning() || server.port() < 0) {
                throw new IllegalStateException("the server did not start (address in use?)");
            }
            return new MockEngineServer(fleet, server, kvEvents);
        } catch (RuntimeException e) {
            fleet.close();
            closeQuietly(kvEvents);
            throw e;
        }
    }

    private static void closeQuietly(ZmqKvEventPublisher publisher) {
        if (publisher != null) {
            publisher.close();
        }
    }

    /** The KV-event publisher (its ports; {@code dropNext} for tests), or null when none was asked for. */
    public ZmqKvEventPublisher kvEvents() {
        return kvEvents;
    }

    /** The port the server listens on. */
    public int port() {
        return server.port();
    }

    /** The simulated worker behind the server. */
    public Engine engine() {
        return fleet.worker(0);
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            server.stop();
        } finally {
            try {
                fleet.close();
            } finally {
                closeQuietly(kvEvents);
            }
        }
    }

    private static byte[] health(Engine engine) {
        int running = 0;
        int waiting = 0;
        for (int rank = 0; rank < engine.runtimeConfig().dataParallelSize(); rank++) {
            EngineLoad load = engine.load(rank);
            running += load.runningRequests();
            waiting += load.waitingRequests();
        }
        return ("{\"status\":\"healthy\",\"running_requests\":" + running + ",\"waiting_requests\":" + waiting
            + "}").getBytes(StandardCharsets.UTF_8);
    }

    static void sendError(ServerResponse res, OpenAiException error) {
        res.status(error.status());
        sendJson(res, OpenAiJson.error(error));
    }

    private static void sendJson(ServerResponse res, byte[] body) {
        res.header(HeaderNames.CONTENT_TYPE, "application/json");
        res.send(body);
    }
}
