package dev.sluice.transport.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What the OpenAI request reader accepts, defaults and refuses. */
class CompletionRequestReaderTest {
    private final CompletionRequestReader reader = new CompletionRequestReader(16);

    @Test
    void shouldRenderChatMessagesAndPreferMaxCompletionTokens() throws OpenAiException {
        CompletionRequest request = read(CompletionRequest.Endpoint.CHAT, "{\"model\":\"m\",\"messages\":["
            + "{\"role\":\"system\",\"content\":\"Be brief.\"},"
            + "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Hi\"}]}],"
            + "\"max_tokens\":9,\"max_completion_tokens\":3,\"stream\":true,"
            + "\"stream_options\":{\"include_usage\":true},\"temperature\":0.2}");

        assertEquals("system: Be brief.\nuser: Hi\n", request.prompt());
        assertEquals(3, request.maxTokens());
        assertTrue(request.stream() && request.includeUsage());
    }

    @Test
    void shouldDefaultMaxTokensOrRequireIt() throws OpenAiException {
        assertEquals(16, read(CompletionRequest.Endpoint.COMPLETIONS, "{\"model\":\"m\",\"prompt\":\"x\"}")
            .maxTokens());
        OpenAiException missing = assertThrows(OpenAiException.class, () -> new CompletionRequestReader(0).read(
            CompletionRequest.Endpoint.COMPLETIONS, bytes("{\"model\":\"m\",\"prompt\":[\"x\"]}")));
        assertEquals("max_tokens", missing.param());
        assertEquals(400, missing.status());
    }

    @Test
    void shouldNameTheOffendingField() {
        assertParam("model", CompletionRequest.Endpoint.CHAT, "{\"messages\":[{\"role\":\"user\"}]}");
        assertParam("messages", CompletionRequest.Endpoint.CHAT, "{\"model\":\"m\",\"messages\":[]}");
        assertParam("prompt", CompletionRequest.Endpoint.COMPLETIONS, "{\"model\":\"m\",\"prompt\":[1,2]}");
        assertParam("max_tokens", CompletionRequest.Endpoint.COMPLETIONS,
            "{\"model\":\"m\",\"prompt\":\"x\",\"max_tokens\":\"5\"}");
        assertParam("stream", CompletionRequest.Endpoint.COMPLETIONS,
            "{\"model\":\"m\",\"prompt\":\"x\",\"stream\":\"yes\"}");
        assertParam("n", CompletionRequest.Endpoint.COMPLETIONS, "{\"model\":\"m\",\"prompt\":\"x\",\"n\":2}");
        assertParam(null, CompletionRequest.Endpoint.COMPLETIONS, "[1]");
    }

    private void assertParam(String param, CompletionRequest.Endpoint endpoint, String body) {
        OpenAiException e = assertThrows(OpenAiException.class, () -> read(endpoint, body));
        assertEquals(param, e.param(), e.getMessage());
        assertEquals("invalid_request_error", e.type());
    }

    private CompletionRequest read(CompletionRequest.Endpoint endpoint, String body) throws OpenAiException {
        return reader.read(endpoint, bytes(body));
    }

    private static byte[] bytes(String body) {
        return body.getBytes(StandardCharsets.UTF_8);
    }
}
