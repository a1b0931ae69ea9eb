package dev.sluice.transport.engine.http;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.transport.engine.ErrorKind;
import dev.sluice.transport.engine.FinishReason;
import java.io.IOException;
import java.util.function.Consumer;

/**
 * Decodes the events of an OpenAI completion stream into text deltas for a sink, and remembers how it ended: the
 * finish reason, the usage of the final chunk, {@code data: [DONE]}, or a failure (an error event, or an event that
 * is not a completion chunk). Text is taken from {@code choices[0].text} ({@code /v1/completions}) or, for servers
 * that answer in the chat shape, {@code choices[0].delta.content}; empty deltas are skipped. Events after the end
 * or a failure are ignored. An ordinary chunk is read in one streaming pass (no tree); anything else (an error, a
 * malformed or unusual chunk) is read again as a tree, which decides. Not thread-safe: the request's reader thread
 * owns it.
 */
final class CompletionStreamAdapter implements SseParser.Handler {
    private static final ObjectMapper JSON = ReaderJson.MAPPER;
    /** Upstream error messages are passed on to clients, cut to this length. */
    static final int MAX_MESSAGE_CHARS = 200;

    private final Consumer<String> text;
    private boolean done;
    private ErrorKind errorKind;
    private String errorMessage;
    private FinishReason finishReason;
    private long promptTokens = -1;
    private long completionTokens = -1;

    CompletionStreamAdapter(Consumer<String> text) {
        this.text = text;
    }

    @Override
    public void onEvent(String type, String data) {
        if (done || errorKind != null) {
            return;
        }
        if (data.equals("[DONE]")) {
            done = true;
            return;
        }
        if (type.equals("message") && ordinaryChunk(data)) {
            return;
        }
        JsonNode chunk;
        try {
            chunk = JSON.readTree(data);
        } catch (JacksonException e) {
            chunk = null;
        }
        if (type.equals("error") || chunk != null && chunk.has("error")) {
            fail("the engine failed the request" + upstreamMessage(chunk));
            return;
        }
        if (chunk == null || !chunk.isObject() || !chunk.path("choices").isArray()) {
            fail("the engine sent a malformed stream event");
            return;
        }
        JsonNode choice = chunk.path("choices").path(0);
        JsonNode piece = choice.has("text") ? choice.get("text") : choice.path("delta").path("content");
        if (piece.isTextual() && !piece.asText().isEmpty()) {
            text.accept(piece.asText());
        }
        if (choice.path("finish_reason").isTextual()) {
            finishReason = finishReason(choice.get("finish_reason").asText());
        }
        JsonNode usage = chunk.path("usage");
        if (usage.isObject()) {
            promptTokens = usage.path("prompt_tokens").asLong(-1);
            completionTokens = usage.path("completion_tokens").asLong(-1);
        }
    }

    /**
     * Reads a chunk {@code {"choices":[{"text" | "delta":{"content"}, "finish_reason"}], "usage":{...}}} in one
     * streaming pass and applies it, as the tree reading would. Returns false, having changed nothing, for anything
     * else (not an object, no {@code choices} array, an {@code error} field, a usage count that is not an integer,
     * malformed JSON): the tree reading then decides.
     */
    private boolean ordinaryChunk(String data) {
        Chunk chunk = new Chunk();
        try (JsonParser json = JSON.getFactory().createParser(data)) {
            if (json.nextToken() != JsonToken.START_OBJECT) {
                return false;
            }
            while (json.nextToken() == JsonToken.FIELD_NAME) {
                String field = json.currentName();
                JsonToken value = json.nextToken();
                switch (field) {
                    case "error" -> {
                        return false;
                    }
                    case "choices" -> {
                        if (value != JsonToken.START_ARRAY || !chunk.readChoices(json)) {
                            return false;
                        }
                    }
                    case "usage" -> {
                        if (value == JsonToken.START_OBJECT) {
                            if (!chunk.readUsage(json)) {
                                return false;
                            }
                        } else {
                            json.skipChildren();
                            chunk.usage = false;
                        }
                    }
                    default -> json.skipChildren();
                }
            }
        } catch (IOException e) {
            return false;
        }
        if (!chunk.choices) {
            return false;
        }
        if (chunk.text != null && !chunk.text.isEmpty()) {
            text.accept(chunk.text);
        }
        if (chunk.finishReason != null) {
            finishReason = finishReason(chunk.finishReason);
        }
        if (chunk.usage) {
            promptTokens = chunk.promptTokens;
            completionTokens = chunk.completionTokens;
        }
        return true;
    }

    private void fail(String message) {
        errorKind = ErrorKind.FAILED;
        errorMessage = message;
    }

    /** {@code ": <message>"} from an OpenAI error body, cut short, or nothing. */
    static String upstreamMessage(JsonNode body) {
        if (body == null) {
            return "";
        }
        JsonNode error = body.path("error");
        JsonNode message = error.isTextual() ? error : error.path("message");
        if (!message.isTextual() || message.asText().isBlank()) {
            return "";
        }
        String text = message.asText().strip();
        return ": " + (text.length() > MAX_MESSAGE_CHARS ? text.substring(0, MAX_MESSAGE_CHARS) + "..." : text);
    }

    private static FinishReason finishReason(String wireName) {
        return switch (wireName) {
            case "length" -> FinishReason.LENGTH;
            case "cancelled", "abort" -> FinishReason.CANCELLED;
            default -> FinishReason.STOP;
        };
    }

    /** True once {@code data: [DONE]} arrived (and no failure before it). */
    boolean done() {
        return done;
    }

    /** The failure's kind, or {@code null}. */
    ErrorKind errorKind() {
        return errorKind;
    }

    /** The failure's client-safe message, or {@code null}. */
    String errorMessage() {
        return errorMessage;
    }

    /** The last finish reason seen, or {@code null}. */
    FinishReason finishReason() {
        return finishReason;
    }

    /** The usage chunk's prompt tokens, or -1 when none arrived. */
    long promptTokens() {
        return promptTokens;
    }

    /** The usage chunk's completion tokens, or -1 when none arrived. */
    long completionTokens() {
        return completionTokens;
    }
}
