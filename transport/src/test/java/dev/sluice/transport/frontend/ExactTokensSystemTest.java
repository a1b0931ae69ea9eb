package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import dev.sluice.core.router.RouterContext;
import dev.sluice.transport.engine.EngineRuntimeConfig;
import dev.sluice.transport.engine.http.HttpEngineSettings;
import dev.sluice.transport.engine.mock.MockEngineServer;
import dev.sluice.transport.engine.mock.MockEngineSettings;
import dev.sluice.transport.engine.sim.SimEngineContext;
import dev.sluice.transport.testing.FaultyEngine;
import dev.sluice.transport.testing.TestTokenizers;
import dev.sluice.transport.tokenize.ChatPrompt;
import dev.sluice.transport.tokenize.hf.HfPromptEncoder;
import dev.sluice.transport.tokenize.hf.TokenizerRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The frontend with a model's own tokenizer (Qwen3's, {@code --tokenizer}) in front of remote engines, through real
 * HTTP on loopback: the engine is sent the token ids the router hashed (a recording engine shows the body), a
 * simulated engine behind {@code mock-engine} prefills exactly those ids (its usage says how many), token-id
 * prompts pass as they are, and what the model cannot take is a clean 400.
 */
class ExactTokensSystemTest {
    private static final String MODEL = "qwen3";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private static TokenizerRegistry tokenizers;
    private static HfPromptEncoder qwen3;
    private static FaultyEngine recording;
    private static MockEngineServer mock;
    private static Frontend toRecording;
    private static Frontend toMock;

    @BeforeAll
    static void start() throws Exception {
        tokenizers = new TokenizerRegistry();
        qwen3 = tokenizers.load(TestTokenizers.qwen3());
        recording = new FaultyEngine();
        mock = MockEngineServer.start(new MockEngineSettings("127.0.0.1", 0, MODEL, 16,
            new SimEngineContext().speedupRatio(50)));
        toRecording = frontend(recording.url());
        toMock = frontend("http://127.0.0.1:" + mock.port());
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable open : new AutoCloseable[] {toMock, toRecording, mock, recording, tokenizers}) {
            try {
                if (open != null) {
                    open.close();
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private static Frontend frontend(String url) throws Exception {
        EngineRuntimeConfig config = new EngineRuntimeConfig(16_384, 16, 8192, 256, 1);
        return Frontend.start(new FrontendSettings("127.0.0.1", 0, MODEL, 1 << 20, 16, 529, null,
            Duration.ofSeconds(2), new RouterContext(), new EngineSetup.Remote(List.of(HttpEngineSettings.of(url,
            MODEL, Duration.ofSeconds(2), Duration.ofSeconds(10), config))), null, TrustedSources.ANY, qwen3));
    }

    @Test
    void shouldSendTheEngineTheTokenIdsOfTheRenderedChat() throws Exception {
        HttpResponse<String> response = post(toRecording, "/v1/chat/completions", "{\"model\":\"qwen3\","
            + "\"messages\":[{\"role\":\"system\",\"content\":\"Be terse.\"},{\"role\":\"user\",\"content\":"
            + "\"Open the sluice 🌊\"}],\"max_tokens\":4}");

        assertEquals(200, response.statusCode(), response.body());
        int[] expected = qwen3.chat(new ChatPrompt(List.of(Map.of("role", "system", "content", "Be terse."),
            Map.of("role", "user", "content", "Open the sluice 🌊")), null, true, Map.of(), null)).tokens();
        JsonNode sent = JSON.readTree(recording.lastCompletionBody());
        assertArrayEquals(expected, JSON.convertValue(sent.get("prompt"), int[].class), sent::toString);
        assertEquals(151644, expected[0], "the template wrote <|im_start|>, one special token");
        assertEquals(MODEL, sent.get("model").asText());
    }

    @Test
    void shouldTokenizeACompletionPromptAndPassTokenIdsAsTheyAre() throws Exception {
        assertEquals(200, post(toRecording, "/v1/completions", "{\"model\":\"qwen3\",\"prompt\":\"Hello, world!\","
            + "\"max_tokens\":2}").statusCode());
        assertArrayEquals(qwen3.tokenize("Hello, world!", true), sentPrompt());
        assertEquals(200, post(toRecording, "/v1/completions", "{\"model\":\"qwen3\",\"prompt\":[[9707,11,1879]],"
            + "\"max_tokens\":2}").statusCode());
        assertArrayEquals(new int[] {9707, 11, 1879}, sentPrompt());
    }

    @Test
    void shouldPrefillExactlyTheTokensTheRouterHashed() throws Exception {
        ChatCompletionCreateParams params = ChatCompletionCreateParams.builder().model(MODEL)
            .addSystemMessage("You are a helpful assistant.").addUserMessage("Ist das Wehr offen? 是的。")
            .maxCompletionTokens(3).build();
        ChatCompletion completion = OpenAIOkHttpClient.builder().baseUrl("http://127.0.0.1:" + toMock.port() + "/v1")
            .apiKey("test").maxRetries(0).build().chat().completions().create(params);

        int expected = qwen3.chat(chat("You are a helpful assistant.", "Ist das Wehr offen? 是的。")).tokens()
            .length;
        assertEquals(expected, completion.usage().orElseThrow().promptTokens(),
            "the engine counted the ids it was sent, not words of a text");
        assertEquals(3, completion.usage().orElseThrow().completionTokens());
    }

    @Test
    void shouldRefuseWhatTheModelCannotTakeWithACleanBadRequest() throws Exception {
        assertError(post(toRecording, "/v1/completions", "{\"model\":\"qwen3\",\"prompt\":[1,151669]}"),
            "prompt[1] = 151669 is not a token id of this model (its vocabulary has ids 0..151668)", "prompt");
        assertError(post(toRecording, "/v1/completions", "{\"model\":\"qwen3\",\"prompt\":[\"a\",\"b\"]}"),
            "a batch of 2 prompts (a list of strings) is not supported; send one prompt per request", "prompt");
        assertError(post(toRecording, "/v1/chat/completions", "{\"model\":\"qwen3\",\"messages\":[{\"role\":"
            + "\"user\",\"content\":[{\"type\":\"input_audio\",\"input_audio\":{}}]}]}"), "messages[0].content[0] is "
            + "a content part of type input_audio, which is not supported; only text parts are",
            "messages[0].content");
    }

    private static ChatPrompt chat(String system, String user) {
        return new ChatPrompt(List.of(Map.of("role", "system", "content", system), Map.of("role", "user",
            "content", user)), null, true, Map.of(), null);
    }

    private static int[] sentPrompt() throws Exception {
        return JSON.convertValue(JSON.readTree(recording.lastCompletionBody()).get("prompt"), int[].class);
    }

    private static void assertError(HttpResponse<String> response, String message, String param) throws Exception {
        assertEquals(400, response.statusCode(), response.body());
        JsonNode error = JSON.readTree(response.body()).get("error");
        assertEquals(message, error.get("message").asText());
        assertEquals(param, error.get("param").asText());
        assertTrue(error.get("type").asText().equals("invalid_request_error"), response::body);
    }

    private static HttpResponse<String> post(Frontend target, String path, String body) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + target.port() + path))
            .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
            HttpResponse.BodyHandlers.ofString());
    }
}
