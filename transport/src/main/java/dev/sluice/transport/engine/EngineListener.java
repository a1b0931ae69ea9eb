package dev.sluice.transport.engine;

/**
 * Receives one request's output. All calls for a request come from one engine thread, in order: zero or more
 * {@link #onToken}, then exactly one of {@link #onFinished} or {@link #onError}. Implementations must return
 * quickly and must not block: they run on the engine's scheduling thread. A listener that throws is treated as a
 * client that went away: the request is freed and gets no further calls.
 */
public interface EngineListener {
    /** One generated token. */
    void onToken(int tokenId);

    /**
     * The request ended normally or was cancelled.
     *
     * @param promptTokens     the prompt's length in tokens.
     * @param completionTokens the tokens delivered through {@link #onToken}.
     */
    void onFinished(FinishReason reason, long promptTokens, long completionTokens);

    /** The request failed (rejected by the engine, or the engine stopped); the message is safe to show a client. */
    void onError(String message);
}
