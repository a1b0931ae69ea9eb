package dev.sluice.transport.engine;

import java.util.Objects;

/**
 * One generation request as an engine receives it: already tokenized and placed on a data-parallel rank.
 *
 * @param requestId    the caller's id, for logs and errors.
 * @param promptTokens the prompt's token ids; the engine neither copies nor changes them, so do not change them
 *                     after submitting.
 * @param maxTokens    how many tokens to generate, at least 1. The simulated engine generates exactly this many.
 * @param dpRank       the data-parallel rank, 0 without data parallelism.
 * @param promptText   the prompt as text, or {@code null}. In-process engines use the token ids; a remote engine
 *                     is sent this text when there is one (it tokenizes it itself: the frontend's tokenizer is not
 *                     the model's), else the token ids.
 */
public record EngineRequest(String requestId, int[] promptTokens, int maxTokens, int dpRank, String promptText) {
    public EngineRequest {
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(promptTokens, "promptTokens");
        if (maxTokens < 1) {
            throw new IllegalArgumentException("maxTokens must be >= 1, was " + maxTokens);
        }
        if (dpRank < 0) {
            throw new IllegalArgumentException("dpRank must be >= 0, was " + dpRank);
        }
    }

    /** A request without its text, for in-process engines. */
    public EngineRequest(String requestId, int[] promptTokens, int maxTokens, int dpRank) {
        this(requestId, promptTokens, maxTokens, dpRank, null);
    }

    /** A request on rank 0. */
    public static EngineRequest of(String requestId, int[] promptTokens, int maxTokens) {
        return new EngineRequest(requestId, promptTokens, maxTokens, 0);
    }
}
