package dev.sluice.transport.tokenize.hf;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What sluice reads from a model's {@code tokenizer_config.json}: the chat templates, the special tokens (which a
 * template may name: {@code bos_token}, {@code eos_token}, ...), and whether the tokenizer adds BOS and EOS tokens.
 *
 * @param templates     the chat templates by name ({@code default}, {@code tool_use}, ...); a single
 *                      {@code chat_template} string is {@code default}. Empty when the model has none.
 * @param specialTokens the special tokens a template sees as variables, by name, as the tokenizer's special
 *                      tokens map has them (strings; {@code additional_special_tokens} a list).
 * @param addBosToken   {@code add_bos_token} when the file sets it, else {@code null} (the tokenizer.json decides).
 * @param addEosToken   {@code add_eos_token} likewise.
 */
record TokenizerConfig(Map<String, String> templates, Map<String, Object> specialTokens, Boolean addBosToken,
                       Boolean addEosToken) {
    private static final List<String> TOKEN_NAMES = List.of("bos_token", "eos_token", "unk_token", "sep_token",
        "pad_token", "cls_token", "mask_token");

    /**
     * Reads the parsed file.
     *
     * @throws IllegalArgumentException a field of the wrong type, named.
     */
    static TokenizerConfig of(JsonNode json) {
        Map<String, String> templates = new LinkedHashMap<>();
        JsonNode template = json.get("chat_template");
        if (template != null && template.isTextual()) {
            templates.put("default", template.asText());
        } else if (template != null && template.isArray()) {
            for (JsonNode named : template) {
                JsonNode name = named.get("name");
                JsonNode text = named.get("template");
                if (name == null || !name.isTextual() || text == null || !text.isTextual()) {
                    throw new IllegalArgumentException("chat_template must be a string or a list of "
                        + "{\"name\": ..., \"template\": ...} objects");
                }
                templates.put(name.asText(), text.asText());
            }
        } else if (template != null && !template.isNull()) {
            throw new IllegalArgumentException("chat_template must be a string or a list of named templates");
        }
        Map<String, Object> special = new LinkedHashMap<>();
        for (String name : TOKEN_NAMES) {
            String token = token(json.get(name), name);
            if (token != null) {
                special.put(name, token);
            }
        }
        JsonNode additional = json.get("additional_special_tokens");
        if (additional != null && additional.isArray()) {
            List<String> tokens = new java.util.ArrayList<>();
            for (JsonNode token : additional) {
                tokens.add(token(token, "additional_special_tokens"));
            }
            special.put("additional_special_tokens", tokens);
        }
        return new TokenizerConfig(templates, special, bool(json, "add_bos_token"), bool(json, "add_eos_token"));
    }

    /** This config with the template of a {@code chat_template.jinja} file, which wins as the default. */
    TokenizerConfig withDefaultTemplate(String template) {
        Map<String, String> all = new LinkedHashMap<>(templates);
        all.put("default", template);
        return new TokenizerConfig(all, specialTokens, addBosToken, addEosToken);
    }

    /** A special token as a string or as an {@code AddedToken} object with {@code content}. */
    private static String token(JsonNode value, String name) {
        if (value == null || value.isNull()) {
            return null;
        }
        if (value.isTextual()) {
            return value.asText();
        }
        JsonNode content = value.get("content");
        if (value.isObject() && content != null && content.isTextual()) {
            return content.asText();
        }
        throw new IllegalArgumentException(name + " must be a string or an object with a string content, was "
            + value);
    }

    private static Boolean bool(JsonNode json, String field) {
        JsonNode value = json.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isBoolean()) {
            throw new IllegalArgumentException(field + " must be true or false, was " + value);
        }
        return value.asBoolean();
    }
}
