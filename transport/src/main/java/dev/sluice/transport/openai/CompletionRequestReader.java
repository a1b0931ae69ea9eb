package dev.sluice.transport.openai;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import java.io.IOException;

/**
 * Reads OpenAI completion request bodies: the prompt in each of its shapes ({@link CompletionPromptReader},
 * {@link ChatReader}), the token budget, streaming. Fields it does not use (temperature, top_p, ...) are accepted
 * and ignored. {@code max_completion_tokens} wins over {@code max_tokens}; when both are absent the reader's default
 * applies, or, with a default of 0, the request is refused. Stateless and thread-safe.
 */
public final class CompletionRequestReader {
    /** A reader, not the mapper: the mapper looks up the tree's deserializer and configuration on every call. */
    private static final ObjectReader JSON = new ObjectMapper().readerFor(JsonNode.class);

    private final int defaultMaxTokens;

    /** {@code defaultMaxTokens} 0 makes {@code max_tokens} required. */
    public CompletionRequestReader(int defaultMaxTokens) {
        if (defaultMaxTokens < 0) {
            throw new IllegalArgumentException("defaultMaxTokens must be >= 0, was " + defaultMaxTokens);
        }
        this.defaultMaxTokens = defaultMaxTokens;
    }

    /**
     * Parses and validates a body.
     *
     * @throws OpenAiException a 400 naming the offending field.
     */
    public CompletionRequest read(CompletionRequest.Endpoint endpoint, byte[] body) throws OpenAiException {
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (JacksonException e) {
            throw OpenAiException.invalid("the request body is not valid JSON: " + e.getOriginalMessage(), null);
        } catch (IOException e) {
            throw OpenAiException.invalid("the request body could not be read: " + e.getMessage(), null);
        }
        if (root == null || !root.isObject()) {
            throw OpenAiException.invalid("the request body must be a JSON object", null);
        }
        JsonNode model = root.get("model");
        if (model == null || !model.isTextual() || model.asText().isEmpty()) {
            throw OpenAiException.invalid("you must provide a model parameter (a non-empty string)", "model");
        }
        Prompt prompt = endpoint == CompletionRequest.Endpoint.CHAT ? ChatReader.read(root)
            : CompletionPromptReader.read(root);
        JsonNode n = root.get("n");
        if (n != null && !n.isNull() && !(n.isIntegralNumber() && n.asLong() == 1)) {
            throw OpenAiException.invalid("only n = 1 is supported", "n");
        }
        boolean stream = bool(root, "stream", "stream");
        boolean includeUsage = false;
        JsonNode options = root.get("stream_options");
        if (options != null && !options.isNull()) {
            if (!options.isObject()) {
                throw OpenAiException.invalid("stream_options must be an object", "stream_options");
            }
            includeUsage = bool(options, "include_usage", "stream_options.include_usage");
        }
        return new CompletionRequest(endpoint, model.asText(), prompt, maxTokens(root), stream, includeUsage);
    }

    private int maxTokens(JsonNode root) throws OpenAiException {
        for (String field : new String[] {"max_completion_tokens", "max_tokens"}) {
            JsonNode value = root.get(field);
            if (value == null || value.isNull()) {
                continue;
            }
            if (!value.isIntegralNumber() || value.asLong() < 1 || value.asLong() > Integer.MAX_VALUE) {
                throw OpenAiException.invalid(field + " must be an integer >= 1, was " + value, field);
            }
            return value.asInt();
        }
        if (defaultMaxTokens == 0) {
            throw OpenAiException.invalid("max_tokens is required", "max_tokens");
        }
        return defaultMaxTokens;
    }

    private static boolean bool(JsonNode parent, String field, String param) throws OpenAiException {
        return Boolean.TRUE.equals(CompletionPromptReader.optionalBoolean(parent, field, param));
    }
}
