package dev.sluice.transport.openai;

import java.util.Objects;

/**
 * The parts of an OpenAI completion request that serving needs.
 *
 * @param endpoint     which API the request came through.
 * @param model        the requested model name.
 * @param prompt       the prompt: completion text or token ids, or the chat messages.
 * @param maxTokens    tokens to generate ({@code max_completion_tokens}, else {@code max_tokens}, else the
 *                     reader's default).
 * @param stream       answer with Server-Sent Events.
 * @param includeUsage {@code stream_options.include_usage}: send a usage chunk before {@code [DONE]}.
 */
public record CompletionRequest(Endpoint endpoint, String model, Prompt prompt, int maxTokens, boolean stream,
                                boolean includeUsage) {
    /** The two generation APIs. */
    public enum Endpoint {
        /** {@code POST /v1/chat/completions}. */
        CHAT,
        /** {@code POST /v1/completions}. */
        COMPLETIONS
    }

    public CompletionRequest {
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(prompt, "prompt");
        if (maxTokens < 1) {
            throw new IllegalArgumentException("maxTokens must be >= 1, was " + maxTokens);
        }
    }
}
