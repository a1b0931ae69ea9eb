package dev.sluice.transport.openai;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.transport.tokenize.ChatPrompt;
import dev.sluice.transport.tokenize.WordPromptEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the OpenAI request reader accepts, defaults and refuses. */
class CompletionRequestReaderTest {
    private final CompletionRequestReader reader = new CompletionRequestReader(16);

    @Test
    void shouldReadChatMessagesAndPreferMaxCompletionTokens() throws OpenAiException {
        CompletionRequest request = read(CompletionRequest.Endpoint.CHAT, "{\"model\":\"m\",\"messages\":["
            + "{\"role\":\"system\",\"content\":\"Be brief.\"},"
            + "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Hi\"},{\"type\":\"text\",\"text\":"
            + "\"there\"}]}],\"max_tokens\":9,\"max_completion_tokens\":3,\"stream\":true,"
            + "\"stream_options\":{\"include_usage\":true},\"temperature\":0.2}");

        ChatPrompt chat = ((Prompt.Chat) request.prompt()).chat();
        assertEquals("system: Be brief.\nuser: Hi\nthere\n", WordPromptEncoder.render(chat),
            "text parts are joined by new lines, as the engines join them");
        assertTrue(chat.addGenerationPrompt());
        assertNull(chat.tools());
        assertEquals(3, request.maxTokens());
        assertTrue(request.stream() && request.includeUsage());
    }

    @Test
    void shouldReadEveryCompletionPromptShape() throws OpenAiException {
        assertEquals(new Prompt.Text("x", null), completion("\"x\""));
        assertEquals(new Prompt.Text("x", false), read(CompletionRequest.Endpoint.COMPLETIONS,
            "{\"model\":\"m\",\"prompt\":\"x\",\"add_special_tokens\":false}").prompt());
        assertEquals(new Prompt.Text("only", null), completion("[\"only\"]"));
        assertArrayEquals(new int[] {1, 2, 151643}, ((Prompt.TokenIds) completion("[1,2,151643]")).ids());
        assertArrayEquals(new int[] {7, 0}, ((Prompt.TokenIds) completion("[[7,0]]")).ids());
    }

    @Test
    void shouldRefuseBatchesAndMalformedPromptsNamingTheShape() {
        assertMessage("a batch of 2 prompts (a list of strings) is not supported", "[\"a\",\"b\"]");
        assertMessage("a batch of 3 prompts (a list of token-id lists) is not supported", "[[1],[2],[3]]");
        assertMessage("prompt[1] must be a token id (an integer >= 0), was -4", "[1,-4]");
        assertMessage("prompt[0] must be a token id (an integer >= 0), was 1.5", "[1.5]");
        assertMessage("prompt[0] must be a token id (an integer >= 0), was 4294967296", "[4294967296]");
        assertMessage("prompt[0][1] must be a token id", "[[1,\"x\"]]");
        assertMessage("prompt[0] and prompt[1] differ in kind", "[\"a\",[1]]");
        assertMessage("prompt must not be an empty list", "[]");
        assertMessage("prompt[0] must not be an empty list of token ids", "[[]]");
        assertMessage("was an object", "{\"text\":\"x\"}");
    }

    @Test
    void shouldKeepToolCallsAsObjectsAndShapeToolsAsTheEnginesDo() throws OpenAiException {
        ChatPrompt chat = chat("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"w?\"},"
            + "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\","
            + "\"function\":{\"name\":\"w\",\"arguments\":\"{\\\"city\\\": \\\"Bern\\\", \\\"days\\\": 2}\"}}]},"
            + "{\"role\":\"tool\",\"content\":\"sunny\",\"tool_call_id\":\"c1\"}],"
            + "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"w\",\"strict\":true}}],"
            + "\"add_generation_prompt\":false,\"chat_template_kwargs\":{\"enable_thinking\":false}}");

        Map<?, ?> call = (Map<?, ?>) ((List<?>) chat.messages().get(1).get("tool_calls")).getFirst();
        assertEquals(Map.of("city", "Bern", "days", 2L), ((Map<?, ?>) call.get("function")).get("arguments"));
        assertEquals("c1", chat.messages().get(2).get("tool_call_id"));
        Map<?, ?> function = (Map<?, ?>) ((Map<?, ?>) chat.tools().getFirst()).get("function");
        assertEquals(List.of("name", "description", "parameters", "strict"), List.copyOf(function.keySet()));
        assertNull(function.get("description"));
        assertEquals(false, chat.addGenerationPrompt());
        assertEquals(Map.of("enable_thinking", false), chat.templateKwargs());
    }

    @Test
    void shouldRefuseNonTextContentPartsByTheirType() {
        OpenAiException e = assertThrows(OpenAiException.class, () -> chat("{\"model\":\"m\",\"messages\":["
            + "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"look\"},{\"type\":\"image_url\","
            + "\"image_url\":{\"url\":\"x\"}}]}]}"));
        assertEquals("messages[0].content[1] is a content part of type image_url, which is not supported; only "
            + "text parts are", e.getMessage());
        assertEquals("messages[0].content", e.param());
        assertThrows(OpenAiException.class, () -> chat("{\"model\":\"m\",\"messages\":[{\"role\":\"assistant\","
            + "\"tool_calls\":[{\"function\":{\"name\":\"f\",\"arguments\":\"{oops\"}}]}]}"));
        assertThrows(OpenAiException.class, () -> chat("{\"model\":\"m\",\"messages\":[{\"role\":\"user\","
            + "\"content\":\"x\"}],\"continue_final_message\":true}"));
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
        assertParam("prompt", CompletionRequest.Endpoint.COMPLETIONS, "{\"model\":\"m\",\"prompt\":[\"a\",\"b\"]}");
        assertParam("prompt", CompletionRequest.Endpoint.COMPLETIONS, "{\"model\":\"m\"}");
        assertParam("max_tokens", CompletionRequest.Endpoint.COMPLETIONS,
            "{\"model\":\"m\",\"prompt\":\"x\",\"max_tokens\":\"5\"}");
        assertParam("stream", CompletionRequest.Endpoint.COMPLETIONS,
            "{\"model\":\"m\",\"prompt\":\"x\",\"stream\":\"yes\"}");
        assertParam("add_special_tokens", CompletionRequest.Endpoint.COMPLETIONS,
            "{\"model\":\"m\",\"prompt\":\"x\",\"add_special_tokens\":1}");
        assertParam("n", CompletionRequest.Endpoint.COMPLETIONS, "{\"model\":\"m\",\"prompt\":\"x\",\"n\":2}");
        assertParam(null, CompletionRequest.Endpoint.COMPLETIONS, "[1]");
    }

    private void assertMessage(String part, String prompt) {
        OpenAiException e = assertThrows(OpenAiException.class, () -> completion(prompt));
        assertTrue(e.getMessage().contains(part), e.getMessage());
        assertEquals("prompt", e.param());
        assertEquals(400, e.status());
    }

    private void assertParam(String param, CompletionRequest.Endpoint endpoint, String body) {
        OpenAiException e = assertThrows(OpenAiException.class, () -> read(endpoint, body));
        assertEquals(param, e.param(), e.getMessage());
        assertEquals("invalid_request_error", e.type());
    }

    private Prompt completion(String prompt) throws OpenAiException {
        return read(CompletionRequest.Endpoint.COMPLETIONS, "{\"model\":\"m\",\"prompt\":" + prompt + "}").prompt();
    }

    private ChatPrompt chat(String body) throws OpenAiException {
        return ((Prompt.Chat) read(CompletionRequest.Endpoint.CHAT, body).prompt()).chat();
    }

    private CompletionRequest read(CompletionRequest.Endpoint endpoint, String body) throws OpenAiException {
        return reader.read(endpoint, bytes(body));
    }

    private static byte[] bytes(String body) {
        return body.getBytes(StandardCharsets.UTF_8);
    }
}
