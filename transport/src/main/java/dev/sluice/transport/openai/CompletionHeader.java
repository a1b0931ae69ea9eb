package dev.sluice.transport.openai;

import java.util.Objects;

/**
 * What every response object and chunk of one completion repeats.
 *
 * @param endpoint chat or text completion (decides the object names and choice shape).
 * @param id       the response id, e.g. {@code chatcmpl-...}.
 * @param created  Unix seconds.
 * @param model    the served model name.
 */
public record CompletionHeader(CompletionRequest.Endpoint endpoint, String id, long created, String model) {
    public CompletionHeader {
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(model, "model");
    }

    /** A header with an id prefixed as OpenAI does ({@code chatcmpl-} or {@code cmpl-}). */
    public static CompletionHeader of(CompletionRequest.Endpoint endpoint, String requestId, long created,
                                      String model) {
        String prefix = endpoint == CompletionRequest.Endpoint.CHAT ? "chatcmpl-" : "cmpl-";
        return new CompletionHeader(endpoint, prefix + requestId, created, model);
    }

    boolean chat() {
        return endpoint == CompletionRequest.Endpoint.CHAT;
    }
}
