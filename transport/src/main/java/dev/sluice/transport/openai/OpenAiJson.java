package dev.sluice.transport.openai;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes OpenAI response bodies as UTF-8 JSON: the non-streaming completion, stream chunks (delta, finish, usage),
 * the model list and error bodies. Stateless and thread-safe.
 */
public final class OpenAiJson {
    private static final JsonFactory FACTORY = new JsonFactory();

    private OpenAiJson() {
    }

    /** A whole {@code chat.completion} or {@code text_completion} with usage. */
    public static byte[] completion(CompletionHeader header, String text, String finishReason, long promptTokens,
                                    long completionTokens) {
        return write(json -> {
            start(json, header, header.chat() ? "chat.completion" : "text_completion");
            json.writeArrayFieldStart("choices");
            json.writeStartObject();
            json.writeNumberField("index", 0);
            if (header.chat()) {
                json.writeObjectFieldStart("message");
                json.writeStringField("role", "assistant");
                json.writeStringField("content", text);
                json.writeEndObject();
            } else {
                json.writeStringField("text", text);
                json.writeNullField("logprobs");
            }
            json.writeStringField("finish_reason", finishReason);
            json.writeEndObject();
            json.writeEndArray();
            usage(json, promptTokens, completionTokens);
            json.writeEndObject();
        });
    }

    /**
     * A chunk carrying {@code text} ({@code null} for an empty delta) and, if not null, a finish reason. The first
     * chat chunk also carries the assistant role. With {@code includeUsage}, {@code "usage": null} as OpenAI sends.
     */
    public static byte[] chunk(CompletionHeader header, String text, boolean first, String finishReason,
                               boolean includeUsage) {
        return write(json -> {
            start(json, header, chunkObject(header));
            chunkRest(json, header.chat(), text, first, finishReason, includeUsage);
        });
    }

    /**
     * What every chunk of one stream starts with, rendered once: {@code "id"}, {@code "object"}, {@code "created"}
     * and {@code "model"}, escaped as the generator escapes them.
     */
    public record ChunkHead(CompletionHeader header, SerializedString fields) {
    }

    /** The head of {@code header}'s chunks, for {@link #chunk(ChunkHead, String, boolean, String, boolean)}. */
    public static ChunkHead chunkHead(CompletionHeader header) {
        String object = new String(write(json -> start(json, header, chunkObject(header))), StandardCharsets.UTF_8);
        // {"id":…,"model":…} without its braces, and the comma the next field needs, since the generator that
        // writes the head raw does not know it wrote fields.
        return new ChunkHead(header, new SerializedString(object.substring(1, object.length() - 1) + ","));
    }

    /** {@link #chunk(CompletionHeader, String, boolean, String, boolean)}, byte for byte, from a rendered head. */
    public static byte[] chunk(ChunkHead head, String text, boolean first, String finishReason, boolean includeUsage) {
        return write(json -> {
            json.writeStartObject();
            json.writeRaw(head.fields());
            chunkRest(json, head.header().chat(), text, first, finishReason, includeUsage);
        });
    }

    private static String chunkObject(CompletionHeader header) {
        return header.chat() ? "chat.completion.chunk" : "text_completion";
    }

    private static void chunkRest(JsonGenerator json, boolean chat, String text, boolean first, String finishReason,
                                  boolean includeUsage) throws IOException {
        json.writeArrayFieldStart("choices");
        json.writeStartObject();
        json.writeNumberField("index", 0);
        if (chat) {
            json.writeObjectFieldStart("delta");
            if (first) {
                json.writeStringField("role", "assistant");
            }
            if (text != null) {
                json.writeStringField("content", text);
            }
            json.writeEndObject();
        } else {
            json.writeStringField("text", text == null ? "" : text);
            json.writeNullField("logprobs");
        }
        if (finishReason == null) {
            json.writeNullField("finish_reason");
        } else {
            json.writeStringField("finish_reason", finishReason);
        }
        json.writeEndObject();
        json.writeEndArray();
        if (includeUsage) {
            json.writeNullField("usage");
        }
        json.writeEndObject();
    }

    /** The final usage chunk of a stream with {@code stream_options.include_usage}: no choices, usage set. */
    public static byte[] usageChunk(CompletionHeader header, long promptTokens, long completionTokens) {
        return write(json -> {
            start(json, header, chunkObject(header));
            json.writeArrayFieldStart("choices");
            json.writeEndArray();
            usage(json, promptTokens, completionTokens);
            json.writeEndObject();
        });
    }

    /** {@code {"object":"list","data":[{"id","object":"model","created","owned_by"}...]}}. */
    public static byte[] models(List<String> names, long created, String ownedBy) {
        return write(json -> {
            json.writeStartObject();
            json.writeStringField("object", "list");
            json.writeArrayFieldStart("data");
            for (String name : names) {
                json.writeStartObject();
                json.writeStringField("id", name);
                json.writeStringField("object", "model");
                json.writeNumberField("created", created);
                json.writeStringField("owned_by", ownedBy);
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        });
    }

    /** {@code {"error":{"message","type","param","code"}}}. */
    public static byte[] error(OpenAiException error) {
        return write(json -> {
            json.writeStartObject();
            json.writeObjectFieldStart("error");
            json.writeStringField("message", error.getMessage());
            json.writeStringField("type", error.type());
            json.writeStringField("param", error.param());
            json.writeStringField("code", error.code());
            json.writeEndObject();
            json.writeEndObject();
        });
    }

    private static void start(JsonGenerator json, CompletionHeader header, String object) throws IOException {
        json.writeStartObject();
        json.writeStringField("id", header.id());
        json.writeStringField("object", object);
        json.writeNumberField("created", header.created());
        json.writeStringField("model", header.model());
    }

    private static void usage(JsonGenerator json, long promptTokens, long completionTokens) throws IOException {
        json.writeObjectFieldStart("usage");
        json.writeNumberField("prompt_tokens", promptTokens);
        json.writeNumberField("completion_tokens", completionTokens);
        json.writeNumberField("total_tokens", promptTokens + completionTokens);
        json.writeEndObject();
    }

    @FunctionalInterface
    private interface Body {
        void write(JsonGenerator json) throws IOException;
    }

    private static byte[] write(Body body) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (JsonGenerator json = FACTORY.createGenerator(bytes)) {
            body.write(json);
        } catch (IOException e) {
            throw new UncheckedIOException("writing JSON to memory failed", e);
        }
        return bytes.toByteArray();
    }
}
