package dev.sluice.transport.tokenize.hf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.transport.openai.CompletionRequest;
import dev.sluice.transport.openai.CompletionRequestReader;
import dev.sluice.transport.openai.Prompt;
import dev.sluice.transport.testing.TestTokenizers;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Token ids identical to implementations sluice did not write, on Qwen3's real tokenizer: each case of
 * {@code parity-cases.json} (plain prompts and chats with Unicode, emoji, code, tools, tool messages, system prompts,
 * thinking) goes through sluice as a request would (the OpenAI reader, then the model's encoder: DJL's Rust
 * tokenizers, Jinjava for the chat template) and through {@code parity.mjs} under Node (the npm package's own
 * JavaScript tokenizer, Hugging Face's {@code @huggingface/jinja}). Every rendered chat and every id must match.
 */
class TokenizerParityTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path CASES = Path.of("src/test/resources/dev/sluice/transport/tokenize/hf/parity-cases.json");

    private static TokenizerRegistry registry;
    private static HfPromptEncoder qwen3;

    @BeforeAll
    static void load() throws IOException {
        registry = new TokenizerRegistry();
        qwen3 = registry.load(TestTokenizers.qwen3());
    }

    @AfterAll
    static void close() {
        if (registry != null) {
            registry.close();
        }
    }

    @Test
    void shouldTokenizeEveryPromptAndChatAsTheReferenceDoes() throws Exception {
        JsonNode cases = JSON.readTree(CASES.toFile());
        JsonNode reference = reference();
        assertEquals(cases.size(), reference.size(), "one reference result per case");
        List<String> differences = new ArrayList<>();
        int prompts = 0;
        int chats = 0;
        for (int i = 0; i < cases.size(); i++) {
            JsonNode expected = reference.get(i);
            Prompt prompt = request(cases.get(i)).prompt();
            int[] ids = prompt.encode(qwen3).tokens();
            if (prompt instanceof Prompt.Chat chat) {
                chats++;
                String text = qwen3.render(chat.chat());
                if (!text.equals(expected.get("text").asText())) {
                    differences.add("case " + i + " renders differently:\n--- reference\n" + expected.get("text")
                        .asText() + "\n--- sluice\n" + text);
                }
            } else {
                prompts++;
            }
            int[] want = JSON.convertValue(expected.get("ids"), int[].class);
            if (!Arrays.equals(want, ids)) {
                differences.add("case " + i + " ids differ:\n  reference " + Arrays.toString(want) + "\n  sluice    "
                    + Arrays.toString(ids));
            }
        }
        assertEquals(List.of(), differences);
        assertTrue(prompts >= 25 && chats >= 25 && prompts + chats >= 50, prompts + " prompts, " + chats + " chats");
    }

    /** The case as a request body read by the frontend's reader: a prompt, or a chat with its options. */
    private static CompletionRequest request(JsonNode testCase) throws Exception {
        ObjectNode body = JSON.createObjectNode().put("model", "qwen3");
        CompletionRequest.Endpoint endpoint;
        if (testCase.has("prompt")) {
            endpoint = CompletionRequest.Endpoint.COMPLETIONS;
            body.set("prompt", testCase.get("prompt"));
        } else {
            endpoint = CompletionRequest.Endpoint.CHAT;
            body.set("messages", testCase.get("messages"));
            copy(testCase, "tools", body, "tools");
            copy(testCase, "add_generation_prompt", body, "add_generation_prompt");
            copy(testCase, "kwargs", body, "chat_template_kwargs");
        }
        return new CompletionRequestReader(16).read(endpoint, JSON.writeValueAsBytes(body));
    }

    private static void copy(JsonNode from, String field, ObjectNode to, String as) {
        if (from.has(field)) {
            to.set(as, from.get(field));
        }
    }

    /** {@code node parity.mjs CASES}: one result per case. */
    private static JsonNode reference() throws Exception {
        Path project = TestTokenizers.nodeProject();
        TestTokenizers.require(Files.isDirectory(project.resolve("node_modules/@huggingface/jinja")),
            "@huggingface/jinja is not installed in " + project);
        Process node;
        try {
            node = new ProcessBuilder("node", "parity.mjs", CASES.toAbsolutePath().toString()).directory(
                project.toFile()).redirectErrorStream(false).start();
        } catch (IOException e) {
            TestTokenizers.require(false, "node cannot be started (" + e.getMessage() + ")");
            throw e;
        }
        node.getOutputStream().close();
        byte[] out;
        byte[] err;
        try (InputStream stdout = node.getInputStream(); InputStream stderr = node.getErrorStream()) {
            out = stdout.readAllBytes();
            err = stderr.readAllBytes();
        }
        assertTrue(node.waitFor(60, TimeUnit.SECONDS), "node parity.mjs ended");
        assertEquals(0, node.exitValue(), () -> "node parity.mjs failed:\n" + new String(err, StandardCharsets.UTF_8));
        return JSON.readTree(out);
    }
}
