package dev.sluice.transport.engine.mock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.transport.engine.EngineLoad;
import dev.sluice.transport.engine.sim.SimEngineContext;
import dev.sluice.transport.tokenize.WordTokenizer;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code sluice mock-engine} over loopback with the JDK HttpClient. */
class MockEngineServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CHAT = "{\"model\":\"sluice-mock\",\"messages\":[{\"role\":\"system\",\"content\":"
        + "\"You are terse.\"},{\"role\":\"user\",\"content\":\"Open the gate, please.\"}]";

    private static MockEngineServer server;
    private static HttpClient client;

    @BeforeAll
    static void start() {
        server = MockEngineServer.start(new MockEngineSettings("127.0.0.1", 0, "sluice-mock", 16,
            new SimEngineContext().speedupRatio(1)));
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
        server.close();
    }

    @Test
    void shouldAnswerAChatCompletionWithExactlyMaxTokens() throws Exception {
        HttpResponse<String> response = post("/v1/chat/completions", CHAT + ",\"max_tokens\":5}");

        assertEquals(200, response.statusCode());
        JsonNode body = JSON.readTree(response.body());
        assertEquals("chat.completion", body.get("object").asText());
        JsonNode choice = body.get("choices").get(0);
        assertEquals("assistant", choice.get("message").get("role").asText());
        assertEquals(5, choice.get("message").get("content").asText().split(" ").length);
        assertEquals("length", choice.get("finish_reason").asText());
        int prompt = WordTokenizer.INSTANCE.encode("system: You are terse.\nuser: Open the gate, please.\n").length;
        assertEquals(prompt, body.get("usage").get("prompt_tokens").asInt());
        assertEquals(5, body.get("usage").get("completion_tokens").asInt());
    }

    @Test
    void shouldStreamOneEventPerTokenThenUsageAndDone() throws Exception {
        HttpResponse<String> response = post("/v1/chat/completions",
            CHAT + ",\"max_completion_tokens\":4,\"stream\":true,\"stream_options\":{\"include_usage\":true}}");

        assertEquals(200, response.statusCode());
        assertEquals("text/event-stream", response.headers().firstValue("content-type").orElseThrow());
        List<String> events = new ArrayList<>();
        for (String line : response.body().split("\n")) {
            if (line.startsWith("data: ")) {
                events.add(line.substring(6));
            } else {
                assertEquals("", line, "only data lines and blank separators");
            }
        }
        assertEquals(7, events.size(), "4 tokens, finish, usage, [DONE]: " + events);
        assertEquals("[DONE]", events.get(6));
        assertEquals("assistant", JSON.readTree(events.get(0)).get("choices").get(0).get("delta").get("role").asText());
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 4; i++) {
            text.append(JSON.readTree(events.get(i)).get("choices").get(0).get("delta").get("content").asText());
        }
        assertEquals(4, text.toString().split(" ").length);
        assertEquals("length", JSON.readTree(events.get(4)).get("choices").get(0).get("finish_reason").asText());
        JsonNode usage = JSON.readTree(events.get(5));
        assertTrue(usage.get("choices").isEmpty());
        assertEquals(4, usage.get("usage").get("completion_tokens").asInt());
    }

    @Test
    void shouldRefuseBadJsonWithAnOpenAiError() throws Exception {
        HttpResponse<String> response = post("/v1/completions", "{\"model\": \"sluice-mock\", \"prompt\": ");

        assertEquals(400, response.statusCode());
        JsonNode error = JSON.readTree(response.body()).get("error");
        assertEquals("invalid_request_error", error.get("type").asText());
        assertTrue(error.get("message").asText().startsWith("the request body is not valid JSON"));
        assertTrue(error.has("param") && error.has("code"));
    }

    @Test
    void shouldPrefillTokenIdPromptsAsTheyAre() throws Exception {
        HttpResponse<String> ids = post("/v1/completions", "{\"model\":\"sluice-mock\",\"prompt\":[151644,872,"
            + "198,9707,151645],\"max_tokens\":2}");
        assertEquals(200, ids.statusCode(), ids.body());
        assertEquals(5, JSON.readTree(ids.body()).get("usage").get("prompt_tokens").asInt());

        HttpResponse<String> nested = post("/v1/completions", "{\"model\":\"sluice-mock\",\"prompt\":[[7,8,9]],"
            + "\"max_tokens\":1}");
        assertEquals(3, JSON.readTree(nested.body()).get("usage").get("prompt_tokens").asInt(), nested::body);
        HttpResponse<String> negative = post("/v1/completions", "{\"model\":\"sluice-mock\",\"prompt\":[1,-2]}");
        assertEquals(400, negative.statusCode(), negative.body());
    }

    @Test
    void shouldListTheModelAndReportHealth() throws Exception {
        HttpResponse<String> models = get("/v1/models");
        assertEquals("sluice-mock", JSON.readTree(models.body()).get("data").get(0).get("id").asText());
        assertEquals(200, get("/health").statusCode());
        assertEquals(404, post("/v1/completions", "{\"model\":\"other\",\"prompt\":\"hi\"}").statusCode());
    }

    @Test
    void shouldFreeTheRequestWhenTheClientDisconnectsMidStream() throws Exception {
        // 100 000 tokens take minutes at speedup 1: idle within seconds means the request was cancelled.
        HttpRequest request = HttpRequest.newBuilder(uri("/v1/completions"))
            .POST(HttpRequest.BodyPublishers.ofString(
                "{\"model\":\"sluice-mock\",\"prompt\":\"Keep talking\",\"max_tokens\":100000,\"stream\":true}"))
            .build();
        HttpResponse<InputStream> response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(response.body(),
            StandardCharsets.UTF_8))) {
            int events = 0;
            while (events < 3) {
                if (reader.readLine().startsWith("data: ")) {
                    events++;
                }
            }
            assertFalse(server.engine().load(0).isIdle(), "the request is running");
        }

        long deadline = System.nanoTime() + 10_000_000_000L;
        EngineLoad load = server.engine().load(0);
        while (!load.isIdle() && System.nanoTime() < deadline) {
            Thread.sleep(20);
            load = server.engine().load(0);
        }
        assertTrue(load.isIdle(), "freed after the disconnect: " + load);
    }

    private static HttpResponse<String> post(String path, String body) throws Exception {
        return client.send(HttpRequest.newBuilder(uri(path)).header("content-type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return client.send(HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }
}
