package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.sluice.core.audit.JournalRun;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.journal.JournalContext;
import dev.sluice.core.journal.JournalRecord;
import dev.sluice.core.router.RouterContext;
import dev.sluice.transport.engine.EngineRuntimeConfig;
import dev.sluice.transport.engine.http.HttpEngineSettings;
import dev.sluice.transport.testing.Await;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalDouble;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client's {@code x-request-id} is its label, not sluice's key: two clients that send the same one at once are
 * both served (no 409), each gets it back, each request has its own sluice id (to the engine and in the journal),
 * and the journal keeps the label of both.
 */
class SharedRequestIdSystemTest {
    private static final String MODEL = "held";

    @TempDir
    Path journal;

    @Test
    void shouldServeTwoConcurrentRequestsWithOneClientIdAndEchoItToEach() throws Exception {
        try (HeldEngine engine = new HeldEngine(); Frontend frontend = start(engine)) {
            HttpClient client = HttpClient.newHttpClient();
            List<CompletableFuture<HttpResponse<String>>> responses = List.of(send(client, frontend),
                send(client, frontend));
            // Both are past admission and in the engine at once: a global id would have refused the second.
            Await.until("both requests reach the engine, or one is answered",
                () -> engine.received.size() == 2 || responses.stream().anyMatch(CompletableFuture::isDone));
            assertEquals(2, engine.received.size(), () -> "both are in flight at once, yet one was answered: "
                + responses.stream().filter(CompletableFuture::isDone).map(f -> f.join().statusCode() + " "
                + f.join().body()).toList());
            engine.release.countDown();

            Set<String> ours = new HashSet<>();
            for (CompletableFuture<HttpResponse<String>> future : responses) {
                HttpResponse<String> response = future.get(20, TimeUnit.SECONDS);
                assertEquals(200, response.statusCode(), response.body());
                assertTrue(response.body().contains("data: [DONE]"), response.body());
                assertEquals("shared-7", response.headers().firstValue("x-request-id").orElseThrow());
                ours.add(response.headers().firstValue("x-sluice-request-id").orElseThrow());
            }
            assertEquals(2, ours.size(), "each request has its own sluice id: " + ours);
            assertEquals(ours, new HashSet<>(engine.received), "the engine is sent sluice's ids");
            assertNotEquals(List.of("shared-7", "shared-7"), List.copyOf(engine.received));
        }
        List<JournalRecord.Request> arrived = JournalRun.read(journal, new long[1]).getFirst().records().stream()
            .filter(r -> r instanceof JournalRecord.Arrived).map(r -> ((JournalRecord.Arrived) r).request())
            .toList();
        assertEquals(2, arrived.size(), arrived::toString);
        for (JournalRecord.Request request : arrived) {
            assertEquals("shared-7", request.clientRequestId(), request::toString);
            assertTrue(request.requestId().startsWith("sluice-"), request::toString);
        }
    }

    private static CompletableFuture<HttpResponse<String>> send(HttpClient client, Frontend frontend) {
        return client.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + frontend.port()
                + "/v1/completions")).header("content-type", "application/json").header("x-request-id", "shared-7")
            .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + MODEL + "\",\"prompt\":\"hold on\","
                + "\"max_tokens\":2,\"stream\":true}")).build(), HttpResponse.BodyHandlers.ofString());
    }

    private Frontend start(HeldEngine engine) throws Exception {
        HttpEngineSettings settings = HttpEngineSettings.of(engine.url(), MODEL, Duration.ofSeconds(2),
            Duration.ofSeconds(30), new EngineRuntimeConfig(16_384, 16, 8192, 256, 1));
        Files.createDirectories(journal);
        return Frontend.start(new FrontendSettings("127.0.0.1", 0, MODEL, 1 << 20, 16, 529, null,
            Duration.ofSeconds(1), new RouterContext(), new EngineSetup.Remote(List.of(settings),
            WorkerHealthSettings.OFF), new JournalSetup(new JournalContext(journal), "test", "", "default",
            OptionalDouble.empty(), QueuePolicy.FCFS)));
    }

    /** An engine that holds every completion until {@link #release} opens, keeping the x-request-id it was sent. */
    private static final class HeldEngine implements AutoCloseable {
        final Queue<String> received = new ConcurrentLinkedQueue<>();
        final CountDownLatch release = new CountDownLatch(1);
        private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        private final HttpServer server;

        HeldEngine() throws IOException {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.setExecutor(executor);
            server.createContext("/v1/completions", this::complete);
            server.createContext("/v1/models", exchange -> answer(exchange,
                "{\"object\":\"list\",\"data\":[{\"id\":\"" + MODEL + "\",\"object\":\"model\"}]}"));
            server.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort();
        }

        private void complete(HttpExchange exchange) throws IOException {
            try (exchange) {
                exchange.getRequestBody().readAllBytes();
                received.add(exchange.getRequestHeaders().getFirst("x-request-id"));
                if (!release.await(20, TimeUnit.SECONDS)) {
                    return;
                }
                exchange.getResponseHeaders().add("content-type", "text/event-stream");
                exchange.sendResponseHeaders(200, 0);
                OutputStream out = exchange.getResponseBody();
                out.write(("data: {\"choices\":[{\"index\":0,\"text\":\"ok\",\"finish_reason\":\"length\"}]}\n\n"
                    + "data: [DONE]\n\n").getBytes(StandardCharsets.UTF_8));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private static void answer(HttpExchange exchange, String json) throws IOException {
            try (exchange) {
                byte[] body = json.getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
            }
        }

        @Override
        public void close() {
            release.countDown();
            server.stop(0);
            executor.shutdownNow();
        }
    }
}
