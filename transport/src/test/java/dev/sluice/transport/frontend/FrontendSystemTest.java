package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.StreamResponse;
import com.openai.errors.NotFoundException;
import com.openai.errors.OpenAIServiceException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyEvent;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.ErrorClass;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.spi.RequestClassifier;
import dev.sluice.transport.engine.sim.SimEngineContext;
import io.helidon.http.HeaderNames;
import java.io.InputStream;
import java.net.Socket;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The frontend through real HTTP on loopback with the official openai-java client: plain and streaming
 * completions, the error statuses of the admission outcomes, and a client that disconnects mid-stream.
 */
class FrontendSystemTest {
    private static final String MODEL = "sluice-test";
    private static final List<ClassifyEvent> EVENTS = new CopyOnWriteArrayList<>();
    private static Frontend frontend;
    private static String baseUrl;

    /** Decides by tenant header: overload, late, crash, or admit. Records every lifecycle event. */
    static final class ByTenant implements RequestClassifier {
        @Override
        public Classification classify(ClassifyRequest request) {
            String tenant = request.tenant() == null ? "" : request.tenant();
            return switch (tenant) {
                case "overload" -> Classification.reject(AdmissionError.of(ErrorClass.CAPACITY_EXHAUSTED)
                    .diagnostic("test overload").retryAfter(Duration.ofSeconds(3)));
                case "late" -> {
                    request.setDueAt(request.ingressAt() - 1);
                    yield Classification.admit(request);
                }
                case "crash" -> throw new IllegalStateException("plugin-private detail");
                default -> Classification.admit(request);
            };
        }

        @Override
        public void onEvent(ClassifyEvent event) {
            EVENTS.add(event.copy());
        }
    }

    @BeforeAll
    static void start() throws Exception {
        RouterContext router = new RouterContext().classifierFactory(c -> new ByTenant());
        frontend = Frontend.start(new FrontendSettings("127.0.0.1", 0, MODEL, 64 * 1024, 16, 529,
            HeaderNames.create("x-tenant"), Duration.ofSeconds(5), router,
            new EngineSetup.Simulated(new SimEngineContext().numGpuBlocks(4096).blockSize(16), 2), null));
        baseUrl = "http://127.0.0.1:" + frontend.port();
    }

    @AfterAll
    static void stop() {
        frontend.close();
    }

    private static OpenAIClient client(String tenant) {
        OpenAIOkHttpClient.Builder builder = OpenAIOkHttpClient.builder().baseUrl(baseUrl + "/v1").apiKey("test")
            .maxRetries(0).timeout(Duration.ofSeconds(30));
        if (tenant != null) {
            builder.putHeader("x-tenant", tenant);
        }
        return builder.build();
    }

    private static ChatCompletionCreateParams chat(String text, long maxTokens) {
        return ChatCompletionCreateParams.builder().model(MODEL).addUserMessage(text).maxCompletionTokens(maxTokens)
            .build();
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long giveUp = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > giveUp) {
                throw new AssertionError("condition not reached in 20 s");
            }
            Thread.sleep(5);
        }
    }

    @Test
    void shouldAnswerAChatCompletionWithUsage() {
        ChatCompletion completion = client(null).chat().completions().create(chat("Hello, how is the river?", 8));
        assertFalse(completion.choices().get(0).message().content().orElseThrow().isBlank());
        assertEquals(8, completion.usage().orElseThrow().completionTokens());
        assertEquals(MODEL, completion.model());
    }

    @Test
    void shouldStreamEveryTokenThroughTheOfficialClient() {
        StringBuilder text = new StringBuilder();
        int chunks = 0;
        try (StreamResponse<ChatCompletionChunk> stream = client(null).chat().completions()
            .createStreaming(chat("Tell me about the sluice gate", 12))) {
            for (ChatCompletionChunk chunk : (Iterable<ChatCompletionChunk>) stream.stream()::iterator) {
                chunks++;
                chunk.choices().forEach(c -> c.delta().content().ifPresent(text::append));
            }
        }
        assertEquals(12, text.toString().trim().split("\\s+").length, text::toString);
        assertTrue(chunks >= 12);
    }

    @Test
    void shouldAnswerOverloadWithTheOverloadStatusAndRetryAfter() throws Exception {
        OpenAIServiceException error = assertThrows(OpenAIServiceException.class,
            () -> client("overload").chat().completions().create(chat("hi", 4)));
        assertEquals(529, error.statusCode());
        HttpResponse<String> raw = post("/v1/chat/completions", "overload",
            "{\"model\":\"" + MODEL + "\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":4}");
        assertEquals(529, raw.statusCode());
        assertEquals("3", raw.headers().firstValue("retry-after").orElseThrow());
        assertTrue(raw.body().contains("\"type\":\"overloaded_error\",\"param\":null,\"code\":"
            + "\"capacity_exhausted\""), raw.body());
        assertEquals("HTTP/1.1 529 Overloaded", statusLine("overload"), "529 has a reason phrase");
        assertFalse(raw.body().contains("test overload"), "the diagnostic never reaches the client");
    }

    @Test
    void shouldAnswerOverloadWith429WhenTheOverloadStatusIs429() throws Exception {
        RouterContext router = new RouterContext().classifierFactory(c -> new ByTenant());
        try (Frontend other = Frontend.start(new FrontendSettings("127.0.0.1", 0, MODEL, 64 * 1024, 16, 429,
            HeaderNames.create("x-tenant"), Duration.ofSeconds(1), router,
            new EngineSetup.Simulated(new SimEngineContext().numGpuBlocks(1024).blockSize(16), 1), null))) {
            OpenAIServiceException error = assertThrows(OpenAIServiceException.class,
                () -> OpenAIOkHttpClient.builder().baseUrl("http://127.0.0.1:" + other.port() + "/v1").apiKey("t")
                    .maxRetries(0).putHeader("x-tenant", "overload").build().chat().completions()
                    .create(chat("hi", 4)));
            assertEquals(429, error.statusCode());
        }
    }

    @Test
    void shouldAnswerAQueueDeadlineWith429() throws Exception {
        OpenAIServiceException error = assertThrows(OpenAIServiceException.class,
            () -> client("late").chat().completions().create(chat("hi", 4)));
        assertEquals(429, error.statusCode());
        assertTrue(error.getMessage().contains("request deadline exceeded"), error.getMessage());
        HttpResponse<String> raw = post("/v1/chat/completions", "late", "{\"model\":\"" + MODEL
            + "\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":4}");
        assertTrue(raw.body().contains("\"type\":\"rate_limit_error\""), "the type a 429 has: " + raw.body());
    }

    @Test
    void shouldSanitizeAClassifierFailure() throws Exception {
        HttpResponse<String> raw = post("/v1/chat/completions", "crash",
            "{\"model\":\"" + MODEL + "\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":4}");
        assertEquals(500, raw.statusCode());
        assertTrue(raw.body().contains("\"message\":\"request classifier failed\""), raw.body());
        assertFalse(raw.body().contains("plugin-private"), raw.body());
    }

    @Test
    void shouldRejectInvalidRequestsWith400And413() throws Exception {
        assertThrows(NotFoundException.class, () -> client(null).chat().completions().create(
            ChatCompletionCreateParams.builder().model("other-model").addUserMessage("hi").build()));
        HttpResponse<String> unknown = post("/v1/completions", null, "{\"model\":\"other-model\",\"prompt\":\"hi\"}");
        assertEquals(404, unknown.statusCode());
        assertTrue(unknown.body().contains("\"type\":\"invalid_request_error\",\"param\":\"model\",\"code\":"
            + "\"model_not_found\""), unknown.body());
        assertEquals(400, post("/v1/chat/completions", null, "{\"model\":").statusCode());
        assertEquals(400, post("/v1/chat/completions", null, "{\"model\":\"" + MODEL
            + "\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":-1}").statusCode());
        HttpResponse<String> badHeader = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(baseUrl + "/v1/completions")).header("x-dynamo-request-strict-priority", "high")
            .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + MODEL + "\",\"prompt\":\"hi\"}")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(400, badHeader.statusCode());
        assertTrue(badHeader.body().contains("x-dynamo-request-strict-priority"), badHeader.body());
        String huge = "{\"model\":\"" + MODEL + "\",\"prompt\":\"" + "x".repeat(70_000) + "\"}";
        assertEquals(413, post("/v1/completions", null, huge).statusCode());
    }

    @Test
    void shouldEchoAndGenerateRequestIds() throws Exception {
        HttpResponse<String> given = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(baseUrl + "/v1/completions")).header("x-request-id", "my-id-1")
            .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + MODEL + "\",\"prompt\":\"hi\","
                + "\"max_tokens\":2}")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals("my-id-1", given.headers().firstValue("x-request-id").orElseThrow());
        String generated = post("/v1/completions", null, "{\"model\":\"" + MODEL + "\",\"prompt\":\"hi\","
            + "\"max_tokens\":2}").headers().firstValue("x-request-id").orElseThrow();
        assertTrue(generated.startsWith("sluice-"), generated);
    }

    @Test
    void shouldAbortOnceAndReleaseTheBookingWhenTheClientDisconnectsMidStream() throws Exception {
        long abortedBefore = frontend.router().stats().aborted();
        HttpResponse<InputStream> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(baseUrl + "/v1/completions")).header("x-request-id", "leaver")
            .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + MODEL + "\",\"prompt\":\"a long story\","
                + "\"max_tokens\":100000,\"stream\":true}")).build(), HttpResponse.BodyHandlers.ofInputStream());
        String ours = response.headers().firstValue("x-sluice-request-id").orElseThrow();
        try (InputStream body = response.body()) {
            assertTrue(body.read(new byte[64]) > 0, "the stream started");
        }
        await(() -> frontend.router().stats().aborted() == abortedBefore + 1);
        await(() -> frontend.router().stats().live() == 0);
        // The classifier hears the terminal event after the router has released the booking.
        await(() -> EVENTS.stream().anyMatch(e -> e.requestId().equals(ours) && e.isTerminal()));
        long terminals = EVENTS.stream().filter(e -> e.requestId().equals(ours) && e.isTerminal()).count();
        assertEquals(1, terminals);
        assertTrue(EVENTS.stream().anyMatch(e -> e.requestId().equals(ours)
            && e instanceof ClassifyEvent.Aborted));
    }

    @Test
    void shouldServeModelsHealthLiveAndMetrics() throws Exception {
        assertTrue(get("/v1/models").contains("\"id\":\"" + MODEL + "\""));
        assertTrue(get("/health").contains("\"status\":\"healthy\""));
        assertTrue(get("/live").contains("live"));
        String metrics = get("/metrics");
        assertTrue(metrics.contains("sluice_requests_arrived_total{model=\"" + MODEL + "\"}"), metrics);
        assertTrue(metrics.contains("dynamo_frontend_router_queue_pending_requests"), metrics);
    }

    /** The status line of a chat completion for {@code tenant}, read off the socket. */
    private static String statusLine(String tenant) throws Exception {
        String body = "{\"model\":\"" + MODEL + "\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
        try (Socket socket = new Socket("127.0.0.1", frontend.port())) {
            socket.getOutputStream().write(("POST /v1/chat/completions HTTP/1.1\r\nHost: sluice\r\nx-tenant: " + tenant
                + "\r\ncontent-type: application/json\r\ncontent-length: " + body.length() + "\r\nconnection: close"
                + "\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII));
            return new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
                .readLine();
        }
    }

    private static HttpResponse<String> post(String path, String tenant, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
            .POST(HttpRequest.BodyPublishers.ofString(body));
        if (tenant != null) {
            request.header("x-tenant", tenant);
        }
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String get(String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(baseUrl + path)).build(),
            HttpResponse.BodyHandlers.ofString()).body();
    }
}
