package dev.sluice.transport.engine;

/**
 * Receives one request's output. All calls for a request come from one engine thread, in order: zero or more
 * {@link #onToken} or {@link #onText}, then exactly one of {@link #onFinished} or one of the {@code onError}
 * methods; never from inside {@link Engine#submit}. A request submitted from one of the shared event loops
 * ({@link dev.sluice.transport.io.EventLoops}) to an engine that runs on them (a remote engine) has its calls on
 * that same loop. Implementations must return quickly and must not block: they run on the engine's scheduling thread
 * or an event loop. A listener that throws is treated as a client that went away: the request is freed and gets no
 * further calls.
 */
public interface EngineListener {
    /** The token id passed to {@link #onToken} by the default {@link #onText}: the id is not known. */
    int UNKNOWN_TOKEN_ID = -1;

    /** One generated token. */
    void onToken(int tokenId);

    /**
     * One generated piece of text, from engines that send text rather than token ids (remote OpenAI-compatible
     * servers send one text delta per event, usually one token). It counts as one token. The default passes
     * {@link #UNKNOWN_TOKEN_ID} to {@link #onToken}, for listeners that only count.
     */
    default void onText(String text) {
        onToken(UNKNOWN_TOKEN_ID);
    }

    /**
     * The request ended normally or was cancelled.
     *
     * @param promptTokens     the prompt's length in tokens.
     * @param completionTokens the tokens generated (as delivered, or as the remote engine reported in its usage).
     */
    void onFinished(FinishReason reason, long promptTokens, long completionTokens);

    /** The request failed (rejected by the engine, or the engine stopped); the message is safe to show a client. */
    void onError(String message);

    /**
     * The request failed for a known reason; the message is safe to show a client. The default drops the kind,
     * which {@link ErrorKind#FAILED} then stands for.
     */
    default void onError(ErrorKind kind, String message) {
        onError(message);
    }
}
