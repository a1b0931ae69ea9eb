package dev.sluice.transport.engine.http;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.sluice.transport.engine.EngineRequest;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The body of the {@code POST /v1/completions} a remote engine is sent: {@code {"model", "prompt": text | [ids],
 * "max_tokens", "stream": true, "stream_options": {"include_usage": true}}} (or {@code "stream": false} for one whole
 * answer, which carries its usage anyway), written straight to bytes (no tree).
 * The prompt is its text when the request carries it (the engine tokenizes it), else its token ids (the engine
 * prefills exactly the tokens the router hashed). Stateless.
 */
public final class CompletionBody {
    private CompletionBody() {
    }

    /** Writes {@code request}'s body for a stream, for the engine's {@code model}, and closes {@code body}. */
    public static void write(OutputStream body, String model, EngineRequest request) throws IOException {
        write(body, model, request, true);
    }

    /** Writes {@code request}'s body, for a stream or one whole answer, and closes {@code body}. */
    public static void write(OutputStream body, String model, EngineRequest request, boolean stream)
        throws IOException {
        try (JsonGenerator json = ReaderJson.MAPPER.getFactory().createGenerator(body)) {
            json.writeStartObject();
            json.writeStringField("model", model);
            if (request.promptText() != null) {
                json.writeStringField("prompt", request.promptText());
            } else {
                json.writeFieldName("prompt");
                json.writeArray(request.promptTokens(), 0, request.promptTokens().length);
            }
            json.writeNumberField("max_tokens", request.maxTokens());
            json.writeBooleanField("stream", stream);
            if (stream) {
                json.writeObjectFieldStart("stream_options");
                json.writeBooleanField("include_usage", true);
                json.writeEndObject();
            }
            json.writeEndObject();
        }
    }
}
