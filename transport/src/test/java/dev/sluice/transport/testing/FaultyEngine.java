package dev.sluice.transport.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A misbehaving OpenAI-compatible engine on loopback (the JDK's {@link HttpServer}), for fault tests. What it does
 * is chosen by a word in the prompt: {@code die} streams one token then drops the connection, {@code hang} never
 * answers, {@code freeze} streams one token then sends nothing more (the connection held open), {@code garbage}
 * streams an event that is not JSON, {@code fail500} and {@code busy503} answer those
 * statuses with a JSON error whose message carries a stack trace; anything else streams two tokens and ends well.
 * {@link #failEverything} makes it answer every request 500 that way, the health probe {@code GET /v1/models}
 * included, until told otherwise. It keeps the last request's body ({@link #lastCompletionBody}). Close it to stop;
 * hung exchanges are released. Thread-safe.
 */
public final class FaultyEngine implements AutoCloseable {
    /** Text only the engine's error bodies contain; a client must never see it. */
    public static final String PRIVATE = "Traceback (most recent call last): /srv/engine/secret.py";

    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final AtomicInteger completions = new AtomicInteger();
    private volatile boolean failing;
    private volatile String lastBody;

    public FaultyEngine() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(executor);
        server.createContext("/v1/completions", this::handle);
        server.createContext("/v1/models", this::models);
        server.start();
    }

    /** The base URL to give {@code HttpEngineSettings}. */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** From now on every request is answered 500 ({@code true}), or as its prompt says ({@code false}). */
    public void failEverything(boolean fail) {
        failing = fail;
    }

    /** The body of the last completion request, or {@code null} before the first. */
    public String lastCompletionBody() {
        return lastBody;
    }

    /** How many completion requests arrived so far. */
    public int completionsReceived() {
        return completions.get();
    }

    private void models(HttpExchange exchange) throws IOException {
        boolean fail = failing;
        try (exchange) {
            byte[] list = fail ? error()
                : "{\"object\":\"list\",\"data\":[{\"id\":\"faulty\",\"object\":\"model\"}]}".getBytes(
                    StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(fail ? 500 : 200, list.length);
            exchange.getResponseBody().write(list);
        }
    }

    private static byte[] error() {
        return ("{\"error\":{\"message\":\"" + PRIVATE + "\"}}").getBytes(StandardCharsets.UTF_8);
    }

    private void handle(HttpExchange exchange) throws IOException {
        completions.incrementAndGet();
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        lastBody = body;
        if (failing) {
            body = "fail500";
        }
        if (body.contains("die")) {
            stream(exchange, body);
        }
        try {
            if (body.contains("hang")) {
                stopped.await(30, TimeUnit.SECONDS);
            } else if (body.contains("fail500") || body.contains("busy503")) {
                byte[] error = error();
                exchange.sendResponseHeaders(body.contains("fail500") ? 500 : 503, error.length);
                exchange.getResponseBody().write(error);
            } else {
                stream(exchange, body);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            exchange.close();
        }
    }

    private void stream(HttpExchange exchange, String body) throws IOException {
        exchange.getResponseHeaders().add("content-type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        event(out, "{\"choices\":[{\"index\":0,\"text\":\"one\",\"finish_reason\":null}]}");
        if (body.contains("die")) {
            // The JDK server drops the connection when a handler throws: no chunked terminator, no [DONE].
            throw new EngineDied();
        }
        if (body.contains("freeze")) {
            try {
                stopped.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return;
        }
        if (body.contains("garbage")) {
            event(out, "{not json at all");
            return;
        }
        event(out, "{\"choices\":[{\"index\":0,\"text\":\" two\",\"finish_reason\":\"length\"}]}");
        event(out, "[DONE]");
    }

    private static void event(OutputStream out, String data) throws IOException {
        out.write(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** Thrown mid-stream so that the server drops the connection. */
    private static final class EngineDied extends RuntimeException {
        private static final long serialVersionUID = 1L;

        EngineDied() {
            super("simulated engine death", null, false, false);
        }
    }

    @Override
    public void close() {
        stopped.countDown();
        server.stop(0);
        executor.shutdownNow();
    }
}
