package dev.sluice.perf.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.sluice.core.router.RouterStatistics;
import dev.sluice.transport.engine.mock.MockEngineServer;
import dev.sluice.transport.engine.mock.MockEngineSettings;
import dev.sluice.transport.engine.sim.SimEngineContext;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The event-loop measurement server answers as serve answers, through the real mock engine: a whole chat answer and a
 * stream (its events, the usage chunk, {@code [DONE]}) with serve's decision headers, over one kept-alive connection;
 * told to, it asks the engine for a whole answer when the client asked for one; a wrong model and an unreachable
 * engine get typed errors; and every admitted request ends at the router as completed or aborted, none left live.
 */
class LoopServeTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path journal;

    private MockEngineServer engine;
    private HttpServer wholeEngine;
    private LoopServe.Served served;
    private EventLoopGroup loops;
    private URI chat;

    private void start(URI engineUrl, boolean engineWhole) throws Exception {
        served = LoopServe.Served.start(journal);
        loops = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        Channel listening = LoopServe.start(loops, 0, engineUrl, served, engineWhole);
        chat = URI.create("http://127.0.0.1:" + ((InetSocketAddress) listening.localAddress()).getPort()
            + "/v1/chat/completions");
    }

    private void startWithMockEngine() throws Exception {
        engine = MockEngineServer.start(new MockEngineSettings("127.0.0.1", 0, LoopServe.MODEL, 16,
            new SimEngineContext().speedupRatio(1000)));
        start(URI.create("http://127.0.0.1:" + engine.port()), false);
    }

    @AfterEach
    void tearDown() {
        if (loops != null) {
            loops.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
        }
        if (served != null) {
            served.close();
        }
        if (engine != null) {
            engine.close();
        }
        if (wholeEngine != null) {
            wholeEngine.stop(0);
        }
    }

    @Test
    void shouldAnswerWholeAndStreamedChatsAsServeDoesAndEndEachAtTheRouter() throws Exception {
        startWithMockEngine();
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            for (int i = 0; i < 3; i++) {
                HttpResponse<String> whole = client.send(post(chatBody(false, 5)),
                    HttpResponse.BodyHandlers.ofString());
                assertEquals(200, whole.statusCode(), whole.body());
                assertEquals("application/json", whole.headers().firstValue("content-type").orElseThrow());
                assertTrue(whole.headers().firstValue("x-sluice-decision").orElseThrow().startsWith("dispatched; "),
                    whole.headers().map().toString());
                JsonNode answer = JSON.readTree(whole.body());
                assertEquals("chat.completion", answer.path("object").asText());
                assertEquals(5, answer.path("usage").path("completion_tokens").asInt());
                assertEquals("length", answer.path("choices").path(0).path("finish_reason").asText());
                assertTrue(!answer.path("choices").path(0).path("message").path("content").asText().isBlank());

                HttpResponse<String> stream = client.send(post(chatBody(true, 4)),
                    HttpResponse.BodyHandlers.ofString());
                assertEquals(200, stream.statusCode(), stream.body());
                assertEquals("text/event-stream", stream.headers().firstValue("content-type").orElseThrow());
                List<String> events = new ArrayList<>();
                for (String event : stream.body().split("\n\n")) {
                    assertTrue(event.startsWith("data: "), event);
                    events.add(event.substring("data: ".length()));
                }
                // Four text deltas, the finish chunk, the usage chunk, [DONE].
                assertEquals(7, events.size(), stream.body());
                assertEquals("[DONE]", events.get(6));
                assertEquals("length", JSON.readTree(events.get(4)).path("choices").path(0).path("finish_reason")
                    .asText());
                assertEquals(4, JSON.readTree(events.get(5)).path("usage").path("completion_tokens").asInt());
            }
        }
        RouterStatistics stats = awaitStats(s -> s.completed() == 6);
        assertEquals(0, stats.aborted());
        assertEquals(0, stats.live());
    }

    @Test
    void shouldAskTheEngineForAWholeAnswerWhenToldAndReadItAsTheStreamsLastChunk() throws Exception {
        // An engine that answers only a request for a whole answer: a stream asked of it is refused.
        wholeEngine = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        wholeEngine.createContext("/v1/completions", exchange -> {
            JsonNode body = JSON.readTree(exchange.getRequestBody().readAllBytes());
            boolean whole = body.path("stream").isBoolean() && !body.path("stream").asBoolean()
                && !body.has("stream_options");
            byte[] answer = (whole ? "{\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"created\":1,"
                + "\"model\":\"" + LoopServe.MODEL + "\",\"choices\":[{\"index\":0,\"text\":\" hello world\","
                + "\"finish_reason\":\"length\"}],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2,"
                + "\"total_tokens\":5}}" : "{\"error\":{\"message\":\"streams are not served here\"}}")
                .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(whole ? 200 : 400, answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
        });
        wholeEngine.start();
        start(URI.create("http://127.0.0.1:" + wholeEngine.getAddress().getPort()), true);
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            for (int i = 0; i < 2; i++) {
                HttpResponse<String> whole = client.send(post(chatBody(false, 2)),
                    HttpResponse.BodyHandlers.ofString());
                assertEquals(200, whole.statusCode(), whole.body());
                JsonNode answer = JSON.readTree(whole.body());
                assertEquals("chat.completion", answer.path("object").asText());
                assertEquals(" hello world", answer.path("choices").path(0).path("message").path("content").asText());
                assertEquals("length", answer.path("choices").path(0).path("finish_reason").asText());
                assertEquals(2, answer.path("usage").path("completion_tokens").asInt());
                assertEquals(3, answer.path("usage").path("prompt_tokens").asInt());
            }
        }
        RouterStatistics stats = awaitStats(s -> s.completed() == 2);
        assertEquals(0, stats.aborted());
    }

    @Test
    void shouldRefuseAModelNotServedAndAnUnparsableBodyWithTypedErrors() throws Exception {
        startWithMockEngine();
        try (HttpClient client = HttpClient.newHttpClient()) {
            HttpResponse<String> wrongModel = client.send(post("{\"model\":\"other\",\"messages\":[{\"role\":\"user\","
                + "\"content\":\"hi\"}]}"), HttpResponse.BodyHandlers.ofString());
            assertEquals(404, wrongModel.statusCode());
            assertEquals("model_not_found", JSON.readTree(wrongModel.body()).path("error").path("code").asText());

            HttpResponse<String> broken = client.send(post("{\"model\":"), HttpResponse.BodyHandlers.ofString());
            assertEquals(400, broken.statusCode(), broken.body());
        }
        assertEquals(0, served.router().stats().arrived());
    }

    @Test
    void shouldAnswer503AndAbortAtTheRouterWhenTheEngineCannotBeReached() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        start(URI.create("http://127.0.0.1:" + closedPort), false);
        try (HttpClient client = HttpClient.newHttpClient()) {
            HttpResponse<String> answer = client.send(post(chatBody(false, 4)), HttpResponse.BodyHandlers.ofString());
            assertEquals(503, answer.statusCode(), answer.body());
            assertEquals("engine_unavailable", JSON.readTree(answer.body()).path("error").path("code").asText());
        }
        RouterStatistics stats = awaitStats(s -> s.aborted() == 1);
        assertEquals(0, stats.completed());
        assertEquals(0, stats.live());
    }

    /** The router's statistics once they satisfy {@code outcome} (the reports reach its scheduler asynchronously). */
    private RouterStatistics awaitStats(Predicate<RouterStatistics> outcome) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        RouterStatistics stats = served.router().stats();
        while (!outcome.test(stats) || stats.live() != 0) {
            assertTrue(System.nanoTime() < deadline, "router statistics never reached the outcome: " + stats);
            Thread.sleep(5);
            stats = served.router().stats();
        }
        return stats;
    }

    private static String chatBody(boolean stream, int maxTokens) {
        return "{\"model\":\"" + LoopServe.MODEL + "\",\"max_tokens\":" + maxTokens + ",\"stream\":" + stream
            + (stream ? ",\"stream_options\":{\"include_usage\":true}" : "")
            + ",\"messages\":[{\"role\":\"user\",\"content\":\"hello there\"}]}";
    }

    private HttpRequest post(String body) throws IOException {
        return HttpRequest.newBuilder(chat).header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }
}
