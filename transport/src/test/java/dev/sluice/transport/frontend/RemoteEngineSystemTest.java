package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.StreamResponse;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.router.RouterStatistics;
import dev.sluice.transport.engine.EngineRuntimeConfig;
import dev.sluice.transport.engine.http.HttpEngineSettings;
import dev.sluice.transport.testing.MockEngineProcess;
import dev.sluice.transport.tokenize.WordTokenizer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The frontend in front of remote engines: {@code sluice mock-engine} in a separate process on loopback, two
 * {@link dev.sluice.transport.engine.http.HttpEngine} workers pointed at it, requests through real HTTP. Also an
 * engine that is down (503 within the connect timeout) and one that accepts and never answers (first-token
 * timeout, 504).
 */
class RemoteEngineSystemTest {
    private static final String MODEL = "sluice-mock";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private static MockEngineProcess mock;
    private static Frontend frontend;

    @BeforeAll
    static void start() throws Exception {
        mock = MockEngineProcess.start("--model-name", MODEL, "--speedup-ratio", "4");
        frontend = frontend(List.of(mock.baseUrl(), mock.baseUrl() + "/v1"), Duration.ofSeconds(2),
            Duration.ofSeconds(10));
    }

    @AfterAll
    static void stop() {
        if (frontend != null) {
            frontend.close();
        }
        if (mock != null) {
            mock.close();
        }
    }

    private static Frontend frontend(List<String> urls, Duration connect, Duration firstToken) throws Exception {
        EngineRuntimeConfig config = new EngineRuntimeConfig(16_384, 16, 8192, 256, 1);
        List<HttpEngineSettings> engines = new ArrayList<>();
        for (String url : urls) {
            engines.add(HttpEngineSettings.of(url, MODEL, connect, firstToken, config));
        }
        return Frontend.start(new FrontendSettings("127.0.0.1", 0, MODEL, 1 << 20, 16, 529, null,
            Duration.ofSeconds(2), new RouterContext(), new EngineSetup.Remote(engines), null));
    }

    @Test
    void shouldAnswerACompletionWithTheEngineTextAndUsage() throws Exception {
        String prompt = "Open the sluice gate at the mill";
        long completedBefore = settled(frontend).completed();
        HttpResponse<String> response = post(frontend, "{\"model\":\"" + MODEL + "\",\"prompt\":\"" + prompt
            + "\",\"max_tokens\":6}");

        assertEquals(200, response.statusCode(), response.body());
        JsonNode body = JSON.readTree(response.body());
        JsonNode choice = body.get("choices").get(0);
        assertEquals(6, choice.get("text").asText().trim().split(" ").length, choice::toString);
        assertEquals("length", choice.get("finish_reason").asText());
        assertEquals(WordTokenizer.INSTANCE.encode(prompt).length, body.get("usage").get("prompt_tokens").asInt());
        assertEquals(6, body.get("usage").get("completion_tokens").asInt());
        assertEquals(completedBefore + 1, settled(frontend).completed());
    }

    @Test
    void shouldStreamEveryDeltaThenUsageAndDone() throws Exception {
        HttpResponse<String> response = post(frontend, "{\"model\":\"" + MODEL + "\",\"prompt\":\"Tell me about "
            + "the weir\",\"max_tokens\":9,\"stream\":true,\"stream_options\":{\"include_usage\":true}}");

        assertEquals(200, response.statusCode(), response.body());
        List<String> data = new ArrayList<>();
        for (String line : response.body().split("\n")) {
            if (line.startsWith("data: ")) {
                data.add(line.substring(6));
            }
        }
        assertEquals("[DONE]", data.getLast());
        JsonNode usage = JSON.readTree(data.get(data.size() - 2)).get("usage");
        assertEquals(9, usage.get("completion_tokens").asInt());
        long textEvents = data.stream().filter(d -> d.contains("\"text\":\"") && !d.contains("\"text\":\"\""))
            .count();
        assertEquals(9, textEvents, response::body);
    }

    @Test
    void shouldStreamAChatThroughTheOfficialClient() {
        ChatCompletionCreateParams params = ChatCompletionCreateParams.builder().model(MODEL)
            .addUserMessage("Is the channel level?").maxCompletionTokens(5)
            .streamOptions(ChatCompletionStreamOptions.builder().includeUsage(true).build()).build();
        StringBuilder text = new StringBuilder();
        AtomicReference<Long> promptTokens = new AtomicReference<>();
        try (StreamResponse<ChatCompletionChunk> stream = OpenAIOkHttpClient.builder()
            .baseUrl("http://127.0.0.1:" + frontend.port() + "/v1").apiKey("test").maxRetries(0).build()
            .chat().completions().createStreaming(params)) {
            stream.stream().forEach(chunk -> {
                chunk.choices().forEach(c -> c.delta().content().ifPresent(text::append));
                chunk.usage().ifPresent(u -> promptTokens.set(u.promptTokens()));
            });
        }
        assertEquals(5, text.toString().trim().split("\\s+").length, text::toString);
        // The frontend renders the chat as text; the engine tokenizes that same text.
        assertEquals(WordTokenizer.INSTANCE.encode("user: Is the channel level?\n").length, promptTokens.get());
    }

    @Test
    void shouldCancelTheUpstreamRequestWhenTheClientDisconnects() throws Exception {
        long abortedBefore = settled(frontend).aborted();
        HttpResponse<java.io.InputStream> response = CLIENT.send(request(frontend, "{\"model\":\"" + MODEL
            + "\",\"prompt\":\"Keep talking\",\"max_tokens\":100000,\"stream\":true}"),
            HttpResponse.BodyHandlers.ofInputStream());
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(response.body(),
            StandardCharsets.UTF_8))) {
            int events = 0;
            while (events < 3) {
                if (reader.readLine().startsWith("data: ")) {
                    events++;
                }
            }
            assertEquals(1, mockRunning(), "the engine is generating");
        }
        // 100 000 tokens take minutes: the engine idle within seconds means the upstream request was cancelled.
        await(() -> frontend.router().stats().aborted() == abortedBefore + 1);
        await(() -> mockRunning() == 0);
        assertEquals(abortedBefore + 1, frontend.router().stats().aborted());
    }

    @Test
    void shouldAnswer503WithinTheConnectTimeoutWhenTheEngineIsDown() throws Exception {
        // Bound, never listening: connections are refused, and no other process can start listening there meanwhile
        // (a port freed here could be taken before the engine is asked).
        try (Socket unlistened = new Socket()) {
            unlistened.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int port = unlistened.getLocalPort();
            try (Frontend down = frontend(List.of("http://127.0.0.1:" + port), Duration.ofSeconds(2),
                Duration.ofSeconds(10))) {
                long start = System.nanoTime();
                HttpResponse<String> plain = post(down, "{\"model\":\"" + MODEL + "\",\"prompt\":\"hi\"}");
                assertTrue(System.nanoTime() - start < Duration.ofSeconds(2).toNanos(), "within the connect timeout");
                assertEquals(503, plain.statusCode(), plain.body());
                assertEquals("engine_unavailable", JSON.readTree(plain.body()).get("error").get("code").asText());
                await(() -> down.router().stats().aborted() == 1);

                HttpResponse<String> streamed = post(down, "{\"model\":\"" + MODEL + "\",\"prompt\":\"hi\","
                    + "\"stream\":true}");
                assertEquals(503, streamed.statusCode(), "nothing was streamed yet: a plain error status");
                await(() -> down.router().stats().aborted() == 2);
                assertEquals(0, down.router().stats().completed());
            }
        }
    }

    @Test
    void shouldAnswer504WhenTheEngineSendsNoFirstToken() throws Exception {
        List<Socket> held = new ArrayList<>();
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread.ofVirtual().start(() -> {
                // Accepts and never answers, like an engine stuck before its first token.
                while (!silent.isClosed()) {
                    try {
                        held.add(silent.accept());
                    } catch (java.io.IOException e) {
                        return;
                    }
                }
            });
            try (Frontend stuck = frontend(List.of("http://127.0.0.1:" + silent.getLocalPort()),
                Duration.ofSeconds(2), Duration.ofMillis(500))) {
                long start = System.nanoTime();
                HttpResponse<String> response = post(stuck, "{\"model\":\"" + MODEL + "\",\"prompt\":\"hi\","
                    + "\"stream\":true}");
                long elapsed = System.nanoTime() - start;
                assertEquals(504, response.statusCode(), response.body());
                assertEquals("engine_timeout", JSON.readTree(response.body()).get("error").get("code").asText());
                assertTrue(elapsed >= Duration.ofMillis(500).toNanos() && elapsed < Duration.ofSeconds(5).toNanos(),
                    "after the first-token timeout: " + elapsed / 1_000_000 + " ms");
                await(() -> stuck.router().stats().aborted() == 1);
            }
        } finally {
            for (Socket socket : held) {
                socket.close();
            }
        }
    }

    /**
     * The frontend's counters once every request it took has ended: the router counts an end on its scheduler
     * thread, after the client may already have the last bytes, so an earlier test's request can still be uncounted.
     */
    private static RouterStatistics settled(Frontend target) throws InterruptedException {
        await(() -> target.router().stats().live() == 0);
        return target.router().stats();
    }

    private static int mockRunning() {
        try {
            HttpResponse<String> health = CLIENT.send(HttpRequest.newBuilder(URI.create(mock.baseUrl() + "/health"))
                .build(), HttpResponse.BodyHandlers.ofString());
            JsonNode body = JSON.readTree(health.body());
            return body.get("running_requests").asInt() + body.get("waiting_requests").asInt();
        } catch (Exception e) {
            throw new AssertionError("mock-engine /health failed; its output:\n" + mock.output(), e);
        }
    }

    private static HttpRequest request(Frontend target, String body) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + target.port() + "/v1/completions"))
            .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private static HttpResponse<String> post(Frontend target, String body) throws Exception {
        return CLIENT.send(request(target, body), HttpResponse.BodyHandlers.ofString());
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long giveUp = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > giveUp) {
                throw new AssertionError("condition not reached in 10 s");
            }
            Thread.sleep(10);
        }
    }
}
