package dev.sluice.transport.tokenize.hf;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.transport.tokenize.ChatPrompt;
import dev.sluice.transport.tokenize.EncodedPrompt;
import dev.sluice.transport.tokenize.PromptEncoder;
import dev.sluice.transport.tokenize.PromptException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A model's prompt encoder from its Hugging Face directory: chats rendered by the model's chat template and
 * tokenized without adding special tokens (the template wrote them), completion prompts tokenized with the special
 * tokens the tokenizer's configuration adds. Remote engines are sent the token ids, so the blocks they cache are the
 * tokens the router hashed. Thread-safe; {@link #close} frees the native tokenizer.
 */
public final class HfPromptEncoder implements PromptEncoder, AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A template that loops over a message's content wants content as a list of parts (as the engines detect). */
    private static final Pattern LOOPS_OVER_CONTENT = Pattern.compile(
        "\\{%-?\\s*for\\s+\\w+\\s+in\\s+[\\w.]+(\\[\\s*['\"]content['\"]\\s*]|\\.content)\\s*(\\||-?%})");

    private final Path directory;
    private final HfTokenizer tokenizer;
    private final TokenizerConfig config;
    private final Map<String, ChatTemplate> templates;
    private final Map<String, Boolean> partsContent;

    private HfPromptEncoder(Path directory, HfTokenizer tokenizer, TokenizerConfig config,
                            Map<String, ChatTemplate> templates, Map<String, Boolean> partsContent) {
        this.directory = directory;
        this.tokenizer = tokenizer;
        this.config = config;
        this.templates = templates;
        this.partsContent = partsContent;
    }

    /**
     * Loads the model directory: {@code tokenizer.json}, {@code tokenizer_config.json}, and
     * {@code chat_template.jinja} when present (it wins over the config's {@code chat_template}, as it does in
     * Hugging Face's loader).
     *
     * @throws IOException a file is missing, unreadable or invalid; the message names it and says what is wrong.
     */
    static HfPromptEncoder open(Path directory) throws IOException {
        return open(directory, NativeCalls.DIRECT);
    }

    /** {@link #open(Path)}, encoding for virtual threads through {@code calls}. */
    static HfPromptEncoder open(Path directory, NativeCalls calls) throws IOException {
        if (!Files.isDirectory(directory)) {
            throw new IOException(directory + " is not a directory; give a Hugging Face model directory holding "
                + "tokenizer.json and tokenizer_config.json");
        }
        Path tokenizerJson = require(directory, "tokenizer.json");
        TokenizerConfig config;
        try {
            config = TokenizerConfig.of(readJson(require(directory, "tokenizer_config.json")));
            Path jinja = directory.resolve("chat_template.jinja");
            if (Files.isRegularFile(jinja)) {
                config = config.withDefaultTemplate(Files.readString(jinja));
            }
        } catch (IllegalArgumentException e) {
            throw new IOException(directory.resolve("tokenizer_config.json") + ": " + e.getMessage(), e);
        }
        Map<String, ChatTemplate> templates = new HashMap<>();
        Map<String, Boolean> parts = new HashMap<>();
        for (Map.Entry<String, String> template : config.templates().entrySet()) {
            try {
                templates.put(template.getKey(), ChatTemplate.compile(template.getValue()));
            } catch (IllegalArgumentException e) {
                throw new IOException(directory + ": chat template '" + template.getKey() + "': " + e.getMessage(), e);
            }
            parts.put(template.getKey(), LOOPS_OVER_CONTENT.matcher(template.getValue()).find());
        }
        HfTokenizer tokenizer;
        try {
            tokenizer = HfTokenizer.load(tokenizerJson, config, calls);
        } catch (IllegalArgumentException e) {
            throw new IOException(directory + ": " + e.getMessage(), e);
        }
        return new HfPromptEncoder(directory, tokenizer, config, Map.copyOf(templates), Map.copyOf(parts));
    }

    private static Path require(Path directory, String name) throws IOException {
        Path file = directory.resolve(name);
        if (!Files.isRegularFile(file)) {
            throw new IOException(directory + " has no " + name + " (a Hugging Face model directory holds "
                + "tokenizer.json and tokenizer_config.json)");
        }
        return file;
    }

    private static JsonNode readJson(Path file) throws IOException {
        try {
            JsonNode json = JSON.readTree(file.toFile());
            if (json == null || !json.isObject()) {
                throw new IOException(file + " is not a JSON object");
            }
            return json;
        } catch (JacksonException e) {
            throw new IOException(file + " is not valid JSON: " + e.getOriginalMessage(), e);
        }
    }

    @Override
    public EncodedPrompt completion(String text, Boolean addSpecialTokens) {
        return new EncodedPrompt(tokenizer.encode(text, addSpecialTokens == null || addSpecialTokens), null);
    }

    @Override
    public EncodedPrompt chat(ChatPrompt chat) throws PromptException {
        String text = render(chat);
        return new EncodedPrompt(tokenizer.encode(text, Boolean.TRUE.equals(chat.addSpecialTokens())), null);
    }

    /** The chat as the model's template writes it. */
    public String render(ChatPrompt chat) throws PromptException {
        String name = chat.tools() != null && templates.containsKey("tool_use") ? "tool_use" : "default";
        ChatTemplate template = templates.get(name);
        if (template == null) {
            throw new PromptException("this model has no chat template (its tokenizer_config.json has no "
                + "chat_template); send the prompt to /v1/completions", "messages");
        }
        Map<String, Object> variables = new HashMap<>(config.specialTokens());
        variables.putAll(chat.templateKwargs());
        variables.put("messages", messages(chat.messages(), partsContent.get(name)));
        variables.put("tools", chat.tools());
        variables.put("add_generation_prompt", chat.addGenerationPrompt());
        return template.render(variables);
    }

    /** The messages with content as the template wants it: a string (parts joined by new lines), or parts. */
    private static List<Map<String, Object>> messages(List<Map<String, Object>> messages, boolean parts) {
        List<Map<String, Object>> shaped = new ArrayList<>(messages.size());
        for (Map<String, Object> message : messages) {
            Map<String, Object> copy = new LinkedHashMap<>(message);
            Object content = message.get("content");
            if (!parts) {
                copy.put("content", ChatPrompt.contentText(content));
            } else if (content instanceof String text) {
                copy.put("content", List.of(Map.of("type", "text", "text", text)));
            } else if (content == null) {
                copy.put("content", List.of());
            }
            shaped.add(copy);
        }
        return shaped;
    }

    @Override
    public int vocabularySize() {
        return tokenizer.vocabularySize();
    }

    @Override
    public String describe() {
        return "tokenizer " + directory;
    }

    /** The tokenizer's ids of {@code text} with or without its special tokens; for checks and tests. */
    public int[] tokenize(String text, boolean addSpecialTokens) {
        return tokenizer.encode(text, addSpecialTokens);
    }

    @Override
    public void close() {
        tokenizer.close();
    }
}
