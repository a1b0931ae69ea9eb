package dev.sluice.transport.tokenize.hf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.transport.tokenize.ChatPrompt;
import dev.sluice.transport.tokenize.PromptException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A model directory made here: a word-level {@code tokenizer.json} whose post-processor adds {@code <s>}, with
 * {@code tokenizer_config.json}s that keep, drop or add special tokens, name chat templates, or are broken.
 */
class HfPromptEncoderTest {
    private static final String TOKENIZER = """
        {"version": "1.0", "truncation": null, "padding": null,
         "added_tokens": [
           {"id": 0, "content": "<s>", "single_word": false, "lstrip": false, "rstrip": false, "normalized": false,
            "special": true},
           {"id": 1, "content": "</s>", "single_word": false, "lstrip": false, "rstrip": false, "normalized": false,
            "special": true}],
         "normalizer": null, "pre_tokenizer": {"type": "Whitespace"},
         "post_processor": {"type": "TemplateProcessing",
           "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
           "pair": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                    {"Sequence": {"id": "B", "type_id": 1}}],
           "special_tokens": {"<s>": {"id": "<s>", "ids": [0], "tokens": ["<s>"]}}},
         "decoder": null,
         "model": {"type": "WordLevel", "unk_token": "[UNK]",
           "vocab": {"<s>": 0, "</s>": 1, "[UNK]": 2, "open": 3, "the": 4, "gate": 5, "user": 6, ":": 7}}}
        """;

    @TempDir
    Path dir;

    private HfPromptEncoder open(String config) throws IOException {
        Files.writeString(dir.resolve("tokenizer.json"), TOKENIZER);
        Files.writeString(dir.resolve("tokenizer_config.json"), config);
        return HfPromptEncoder.open(dir);
    }

    @Test
    void shouldAddTheSpecialTokensThePostProcessorAddsUnlessTheRequestSaysNo() throws Exception {
        try (HfPromptEncoder encoder = open("{\"bos_token\": \"<s>\"}")) {
            assertArrayEquals(new int[] {0, 3, 4, 5}, encoder.completion("open the gate", null).tokens());
            assertArrayEquals(new int[] {3, 4, 5}, encoder.completion("open the gate", false).tokens());
            assertNull(encoder.completion("open", null).text(), "a remote engine is sent the ids");
            assertEquals(8, encoder.vocabularySize());
        }
    }

    @Test
    void shouldFollowAddBosAndAddEosTokenWhereTheConfigSetsThem() throws Exception {
        try (HfPromptEncoder noBos = open("{\"bos_token\": \"<s>\", \"add_bos_token\": false}")) {
            assertArrayEquals(new int[] {3, 5}, noBos.completion("open gate", null).tokens());
        }
        try (HfPromptEncoder eos = open("{\"bos_token\": {\"content\": \"<s>\", \"__type\": \"AddedToken\"},"
            + " \"eos_token\": \"</s>\", \"add_eos_token\": true}")) {
            assertArrayEquals(new int[] {0, 3, 5, 1}, eos.completion("open gate", null).tokens());
        }
        IOException unknown = assertThrows(IOException.class, () -> open("{\"bos_token\": \"<bos>\", "
            + "\"add_bos_token\": true}"));
        assertEquals(dir + ": tokenizer_config.json's bos_token '<bos>' is not an added token of tokenizer.json",
            unknown.getMessage());
    }

    @Test
    void shouldRenderChatsWithTheModelsTemplateWithoutAddingSpecialTokens() throws Exception {
        String template = "{{ bos_token }}{% for m in messages %}{{ m.role }} : {{ m.content }} {% endfor %}";
        try (HfPromptEncoder encoder = open("{\"bos_token\": \"<s>\", \"chat_template\": [{\"name\": \"default\", "
            + "\"template\": \"" + template + "\"}, {\"name\": \"tool_use\", \"template\": \"gate\"}]}")) {
            ChatPrompt chat = new ChatPrompt(List.of(Map.of("role", "user", "content", List.of(Map.of("type", "text",
                "text", "open"), Map.of("type", "text", "text", "the")))), null, true, Map.of(), null);
            assertEquals("<s>user : open\nthe ", encoder.render(chat));
            assertArrayEquals(new int[] {0, 6, 7, 3, 4}, encoder.chat(chat).tokens());
            ChatPrompt withTools = new ChatPrompt(chat.messages(), List.of(Map.of("type", "function")), true,
                Map.of(), null);
            assertArrayEquals(new int[] {5}, encoder.chat(withTools).tokens(), "the tool_use template");
        }
    }

    @Test
    void shouldPreferChatTemplateJinjaAndRefuseChatsWithoutATemplate() throws Exception {
        ChatPrompt chat = new ChatPrompt(List.of(Map.of("role", "user", "content", "open")), null, true, Map.of(),
            null);
        try (HfPromptEncoder none = open("{}")) {
            PromptException refused = assertThrows(PromptException.class, () -> none.chat(chat));
            assertTrue(refused.getMessage().startsWith("this model has no chat template"), refused::getMessage);
        }
        Files.writeString(dir.resolve("chat_template.jinja"), "{{ messages[0].content }} gate\n");
        try (HfPromptEncoder jinja = open("{\"chat_template\": \"the\"}")) {
            assertEquals("open gate", jinja.render(chat), "the file wins; its one trailing newline is dropped");
        }
    }

    @Test
    void shouldNameWhatIsWrongWithTheDirectory() throws Exception {
        assertEquals(dir.resolve("nope") + " is not a directory; give a Hugging Face model directory holding "
            + "tokenizer.json and tokenizer_config.json", assertThrows(IOException.class,
            () -> HfPromptEncoder.open(dir.resolve("nope"))).getMessage());
        assertEquals(dir + " has no tokenizer.json (a Hugging Face model directory holds tokenizer.json and "
            + "tokenizer_config.json)", assertThrows(IOException.class, () -> HfPromptEncoder.open(dir))
            .getMessage());
        Files.writeString(dir.resolve("tokenizer.json"), TOKENIZER);
        assertTrue(assertThrows(IOException.class, () -> HfPromptEncoder.open(dir)).getMessage()
            .endsWith(" has no tokenizer_config.json (a Hugging Face model directory holds tokenizer.json and "
                + "tokenizer_config.json)"));
        assertTrue(assertThrows(IOException.class, () -> open("{\"bos_token\": ")).getMessage()
            .startsWith(dir.resolve("tokenizer_config.json") + " is not valid JSON: "));
        assertTrue(assertThrows(IOException.class, () -> open("{\"chat_template\": \"{% for %}\"}")).getMessage()
            .startsWith(dir + ": chat template 'default': the chat template cannot be used: line 1: "));
        Files.writeString(dir.resolve("tokenizer_config.json"), "{}");
        Files.writeString(dir.resolve("tokenizer.json"), "{\"model\": {\"vocab\": {\"a\": 0}}}");
        String notATokenizer = assertThrows(IOException.class, () -> HfPromptEncoder.open(dir)).getMessage();
        assertTrue(notATokenizer.contains("is not a tokenizer the Hugging Face tokenizers library reads"),
            notATokenizer);
    }

    @Test
    void shouldLoadEachDirectoryOnceAndRefuseAfterClose() throws Exception {
        Files.writeString(dir.resolve("tokenizer.json"), TOKENIZER);
        Files.writeString(dir.resolve("tokenizer_config.json"), "{}");
        TokenizerRegistry registry = new TokenizerRegistry();
        HfPromptEncoder first = registry.load(dir);
        assertSame(first, registry.load(dir.resolve(".").resolve("..").resolve(dir.getFileName())));
        registry.close();
        registry.close();
        assertThrows(IllegalStateException.class, () -> registry.load(dir));
    }
}
