package dev.sluice.transport.engine.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * What one completion stream chunk says, as {@link CompletionStreamAdapter}'s streaming pass reads it: the first
 * choice's text ({@code text}, else {@code delta.content}) and finish reason, and the usage counts. Each read method
 * starts just after the opening token of its value and leaves the parser on its closing token; it returns false
 * when the value is not one the pass knows (the adapter then reads the chunk as a tree). One per stream, reset for
 * each chunk, on the thread that reads the stream (the exchange's event loop).
 */
final class Chunk {
    boolean choices;
    String text;
    String finishReason;
    boolean usage;
    long promptTokens = -1;
    long completionTokens = -1;

    /** Forgets the last chunk. */
    void reset() {
        choices = false;
        text = null;
        finishReason = null;
        usage = false;
        promptTokens = -1;
        completionTokens = -1;
    }

    /** The {@code choices} array: the first element is read, the others skipped. */
    boolean readChoices(JsonParser json) throws IOException {
        choices = true;
        text = null;
        finishReason = null;
        boolean first = true;
        JsonToken token;
        while ((token = json.nextToken()) != JsonToken.END_ARRAY) {
            if (token == null || token == JsonToken.NOT_AVAILABLE) {
                // The array is cut short.
                return false;
            }
            if (!first) {
                json.skipChildren();
                continue;
            }
            first = false;
            if (token != JsonToken.START_OBJECT) {
                // The tree reading would find neither text nor a finish reason in it.
                json.skipChildren();
                continue;
            }
            if (!readChoice(json)) {
                return false;
            }
        }
        return true;
    }

    private boolean readChoice(JsonParser json) throws IOException {
        boolean hasText = false;
        String delta = null;
        while (json.nextToken() == JsonToken.FIELD_NAME) {
            String field = json.currentName();
            JsonToken value = json.nextToken();
            switch (field) {
                case "text" -> {
                    hasText = true;
                    text = value == JsonToken.VALUE_STRING ? json.getText() : null;
                    json.skipChildren();
                }
                case "delta" -> {
                    delta = value == JsonToken.START_OBJECT ? readContent(json) : null;
                    json.skipChildren();
                }
                case "finish_reason" -> {
                    finishReason = value == JsonToken.VALUE_STRING ? json.getText() : null;
                    json.skipChildren();
                }
                default -> json.skipChildren();
            }
        }
        if (!hasText) {
            text = delta;
        }
        return json.currentToken() == JsonToken.END_OBJECT;
    }

    /** The {@code content} string of a {@code delta} object, or null; leaves the parser on the object's end. */
    private static String readContent(JsonParser json) throws IOException {
        String content = null;
        while (json.nextToken() == JsonToken.FIELD_NAME) {
            String field = json.currentName();
            JsonToken value = json.nextToken();
            if (field.equals("content")) {
                content = value == JsonToken.VALUE_STRING ? json.getText() : null;
            }
            json.skipChildren();
        }
        return content;
    }

    /** The {@code usage} object; counts that are absent stay -1, counts that are not integers are not known here. */
    boolean readUsage(JsonParser json) throws IOException {
        usage = true;
        promptTokens = -1;
        completionTokens = -1;
        while (json.nextToken() == JsonToken.FIELD_NAME) {
            String field = json.currentName();
            JsonToken value = json.nextToken();
            boolean count = field.equals("prompt_tokens") || field.equals("completion_tokens");
            if (count && value != JsonToken.VALUE_NUMBER_INT && value != JsonToken.VALUE_NULL) {
                return false;
            }
            if (count && value == JsonToken.VALUE_NUMBER_INT) {
                if (field.equals("prompt_tokens")) {
                    promptTokens = json.getLongValue();
                } else {
                    completionTokens = json.getLongValue();
                }
            }
            json.skipChildren();
        }
        return true;
    }
}
