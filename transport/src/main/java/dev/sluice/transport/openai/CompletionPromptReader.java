package dev.sluice.transport.openai;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The {@code prompt} of {@code /v1/completions} in every shape OpenAI's API defines: a string, a list of token ids,
 * a list of strings, a list of token-id lists. A list of one string or one token-id list is that prompt; a batch of
 * several is refused (one prompt per request, since {@code n} is 1), naming its shape. Stateless.
 */
final class CompletionPromptReader {
    private static final String SHAPES = "prompt must be a string, a list of token ids, a list of strings or a list"
        + " of token-id lists";

    private CompletionPromptReader() {
    }

    static Prompt read(JsonNode root) throws OpenAiException {
        JsonNode prompt = root.get("prompt");
        Boolean addSpecialTokens = optionalBoolean(root, "add_special_tokens");
        if (prompt != null && prompt.isTextual()) {
            return new Prompt.Text(prompt.asText(), addSpecialTokens);
        }
        if (prompt == null || !prompt.isArray()) {
            throw OpenAiException.invalid(SHAPES + (prompt == null ? "; it is missing" : ", was " + kind(prompt)),
                "prompt");
        }
        if (prompt.isEmpty()) {
            throw OpenAiException.invalid("prompt must not be an empty list", "prompt");
        }
        JsonNode first = prompt.get(0);
        if (first.isNumber()) {
            return new Prompt.TokenIds(tokenIds(prompt, "prompt"));
        }
        if (first.isTextual()) {
            requireAll(prompt, JsonNode::isTextual);
            if (prompt.size() > 1) {
                throw batch(prompt.size(), "a list of strings");
            }
            return new Prompt.Text(first.asText(), addSpecialTokens);
        }
        if (first.isArray()) {
            requireAll(prompt, JsonNode::isArray);
            if (prompt.size() > 1) {
                throw batch(prompt.size(), "a list of token-id lists");
            }
            return new Prompt.TokenIds(tokenIds(first, "prompt[0]"));
        }
        throw OpenAiException.invalid(SHAPES + "; prompt[0] is " + kind(first), "prompt");
    }

    /** Each element an integer in {@code [0, 2^31)}; the model's vocabulary is checked later, by its encoder. */
    private static int[] tokenIds(JsonNode list, String param) throws OpenAiException {
        if (list.isEmpty()) {
            throw OpenAiException.invalid(param + " must not be an empty list of token ids", "prompt");
        }
        int[] ids = new int[list.size()];
        for (int i = 0; i < ids.length; i++) {
            JsonNode id = list.get(i);
            if (!id.isIntegralNumber() || !id.canConvertToInt() || id.asInt() < 0) {
                throw OpenAiException.invalid(param + "[" + i + "] must be a token id (an integer >= 0), was "
                    + id, "prompt");
            }
            ids[i] = id.asInt();
        }
        return ids;
    }

    private static void requireAll(JsonNode list, java.util.function.Predicate<JsonNode> shape)
        throws OpenAiException {
        for (int i = 1; i < list.size(); i++) {
            if (!shape.test(list.get(i))) {
                throw OpenAiException.invalid(SHAPES + "; prompt[0] and prompt[" + i + "] differ in kind",
                    "prompt");
            }
        }
    }

    private static OpenAiException batch(int size, String shape) {
        return OpenAiException.invalid("a batch of " + size + " prompts (" + shape + ") is not supported; send one "
            + "prompt per request", "prompt");
    }

    static String kind(JsonNode node) {
        return node.isNull() ? "null" : node.isObject() ? "an object" : node.isBoolean() ? "a boolean"
            : node.isNumber() ? "a number" : node.isArray() ? "a list" : "a string";
    }

    /** A boolean field of the request body, or {@code null} when absent. */
    static Boolean optionalBoolean(JsonNode parent, String field) throws OpenAiException {
        return optionalBoolean(parent, field, field);
    }

    /** A boolean field, or {@code null} when absent; {@code param} names it in the error (its path in the body). */
    static Boolean optionalBoolean(JsonNode parent, String field, String param) throws OpenAiException {
        JsonNode value = parent.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isBoolean()) {
            throw OpenAiException.invalid(param + " must be a boolean, was " + value, param);
        }
        return value.asBoolean();
    }
}
