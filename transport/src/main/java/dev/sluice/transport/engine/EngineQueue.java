package dev.sluice.transport.engine;

import java.util.concurrent.LinkedBlockingQueue;

/**
 * Hands one request's engine callbacks from the engine's thread to the HTTP handler's thread, which blocks in
 * {@link #take}. The engine thread never blocks: the queue is unbounded (a request has at most max_tokens tokens).
 */
public final class EngineQueue implements EngineListener {
    /** One callback. */
    public sealed interface Signal {
    }

    /**
     * A generated token.
     *
     * @param tokenId the id, or {@link EngineListener#UNKNOWN_TOKEN_ID} when the engine sent text.
     * @param text    the engine's text for it, or {@code null} when the frontend renders the id.
     */
    public record Token(int tokenId, String text) implements Signal {
        public Token(int tokenId) {
            this(tokenId, null);
        }
    }

    /** The request ended normally (or was cancelled). */
    public record Finished(FinishReason reason, long promptTokens, long completionTokens) implements Signal {
    }

    /** The request failed; the message is safe to show a client. */
    public record Failed(ErrorKind kind, String message) implements Signal {
        public Failed(String message) {
            this(ErrorKind.FAILED, message);
        }
    }

    private final LinkedBlockingQueue<Signal> signals = new LinkedBlockingQueue<>();

    /** An empty queue. */
    public EngineQueue() {
    }

    @Override
    public void onToken(int tokenId) {
        signals.add(new Token(tokenId));
    }

    @Override
    public void onText(String text) {
        signals.add(new Token(UNKNOWN_TOKEN_ID, text));
    }

    @Override
    public void onFinished(FinishReason reason, long promptTokens, long completionTokens) {
        signals.add(new Finished(reason, promptTokens, completionTokens));
    }

    @Override
    public void onError(String message) {
        signals.add(new Failed(message));
    }

    @Override
    public void onError(ErrorKind kind, String message) {
        signals.add(new Failed(kind, message));
    }

    /** The next callback, waiting for it; on the handler's (virtual) thread. */
    public Signal take() throws InterruptedException {
        return signals.take();
    }
}
