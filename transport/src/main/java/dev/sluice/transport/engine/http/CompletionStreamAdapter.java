package dev.sluice.transport.engine.http;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.async.ByteArrayFeeder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.transport.engine.ErrorKind;
import dev.sluice.transport.engine.FinishReason;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Decodes the events of an OpenAI completion stream into text deltas for a sink, and remembers how it ended: the
 * finish reason, the usage of the final chunk, {@code data: [DONE]}, or a failure (an error event, or an event that
 * is not a completion chunk). Text is taken from {@code choices[0].text} ({@code /v1/completions}) or, for servers
 * that answer in the chat shape, {@code choices[0].delta.content}; empty deltas are skipped. Events after the end
 * or a failure are ignored. An ordinary chunk is read in one streaming pass (no tree) straight from the event's
 * bytes, by one non-blocking parser fed each event in turn (no parser per event: it is dropped only after an event
 * it could not read to its end); anything else (an error, a malformed or unusual chunk) is decoded to a
 * {@code String} and read as a tree, which decides. Jackson's byte parsers refuse ill-formed UTF-8 (overlong forms,
 * encoded surrogates, cut-off sequences), so such a chunk takes the second way and its text reads with U+FFFD, as
 * decoding to a {@code String} gives. Not thread-safe: the thread reading the request's stream (its exchange's event
 * loop) owns it.
 */
public final class CompletionStreamAdapter implements SseParser.Handler {
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
    /** What the streaming pass read of the last chunk. */
    private final Chunk streamed = new Chunk();
    /** The non-blocking parser the stream's chunks are fed to in turn, made at the first; null after a misfit. */
    private JsonParser stream;
    private ByteArrayFeeder feeder;

    public CompletionStreamAdapter(Consumer<String> text) {
        this.text = text;
    }

    @Override
    public void onEvent(String type, byte[] data, int offset, int length) {
        if (done || errorKind != null) {
            return;
        }
        if (isDone(data, offset, length)) {
            done = true;
            closeStream();
            return;
        }
        if (type.equals("message") && ordinaryStart(data, offset, length) && ordinaryChunk(data, offset, length)) {
            return;
        }
        onUnusualEvent(type, new String(data, offset, length, StandardCharsets.UTF_8));
    }

    /** Decides an event the streaming pass left alone, from its text, by reading it as a tree. */
    private void onUnusualEvent(String type, String data) {
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
    private boolean ordinaryChunk(byte[] data, int offset, int length) {
        streamed.reset();
        boolean read = false;
        try {
            if (stream == null) {
                stream = JSON.getFactory().createNonBlockingByteArrayParser();
                feeder = (ByteArrayFeeder) stream.getNonBlockingInputFeeder();
            }
            feeder.feedInput(data, offset, offset + length);
            read = readChunk(stream);
        } catch (IOException e) {
            read = false;
        } finally {
            if (!read || !feeder.needMoreInput()) {
                // Left inside the value, or with bytes after it: the next event starts on a new parser.
                closeStream();
            }
        }
        if (!read || !streamed.choices) {
            return false;
        }
        if (streamed.text != null && !streamed.text.isEmpty()) {
            text.accept(streamed.text);
        }
        if (streamed.finishReason != null) {
            finishReason = finishReason(streamed.finishReason);
        }
        if (streamed.usage) {
            promptTokens = streamed.promptTokens;
            completionTokens = streamed.completionTokens;
        }
        return true;
    }

    /**
     * One root object into {@link #streamed}; false for what the pass does not know, or an object cut short (the
     * parser then reports {@code NOT_AVAILABLE}: the event is all the input there is).
     */
    private boolean readChunk(JsonParser json) throws IOException {
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
                    if (value != JsonToken.START_ARRAY || !streamed.readChoices(json)) {
                        return false;
                    }
                }
                case "usage" -> {
                    if (value == JsonToken.START_OBJECT) {
                        if (!streamed.readUsage(json)) {
                            return false;
                        }
                    } else {
                        json.skipChildren();
                        streamed.usage = false;
                    }
                }
                default -> json.skipChildren();
            }
        }
        return json.currentToken() == JsonToken.END_OBJECT;
    }

    /** Gives the stream's parser back (its buffers to the pool, the field names it learnt to the factory). */
    private void closeStream() {
        if (stream == null) {
            return;
        }
        try {
            stream.close();
        } catch (IOException e) {
            // Nothing was written; the parser is dropped either way.
        }
        stream = null;
        feeder = null;
    }

    private static boolean isDone(byte[] data, int offset, int length) {
        return length == 6 && data[offset] == '[' && data[offset + 1] == 'D' && data[offset + 2] == 'O'
            && data[offset + 3] == 'N' && data[offset + 4] == 'E' && data[offset + 5] == ']';
    }

    /**
     * Whether the event starts as every ordinary chunk does, with <code>{"</code>: then Jackson's byte parser takes
     * it as UTF-8 (it guesses UTF-16 or UTF-32 from zero bytes at the start).
     */
    private static boolean ordinaryStart(byte[] data, int offset, int length) {
        return length >= 2 && data[offset] == '{' && data[offset + 1] == '"';
    }

    private void fail(String message) {
        closeStream();
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
    public boolean done() {
        return done;
    }

    /** The failure's kind, or {@code null}. */
    public ErrorKind errorKind() {
        return errorKind;
    }

    /** The failure's client-safe message, or {@code null}. */
    public String errorMessage() {
        return errorMessage;
    }

    /** The last finish reason seen, or {@code null}. */
    public FinishReason finishReason() {
        return finishReason;
    }

    /** The usage chunk's prompt tokens, or -1 when none arrived. */
    public long promptTokens() {
        return promptTokens;
    }

    /** The usage chunk's completion tokens, or -1 when none arrived. */
    public long completionTokens() {
        return completionTokens;
    }
}
