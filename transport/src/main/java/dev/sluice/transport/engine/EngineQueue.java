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

    /** A generated token. */
    public record Token(int tokenId) implements Signal {
    }

    /** The request ended normally (or was cancelled). */
    public record Finished(FinishReason reason, long promptTokens, long completionTokens) implements Signal {
    }

    /** The request failed; the message is safe to show a client. */
    public record Failed(String message) implements Signal {
    }

    private final LinkedBlockingQueue<Signal> signals = new LinkedBlockingQueue<>();

    @Override
    public void onToken(int tokenId) {
        signals.add(new Token(tokenId));
    }

    @Override
    public void onFinished(FinishReason reason, long promptTokens, long completionTokens) {
        signals.add(new Finished(reason, promptTokens, completionTokens));
    }

    @Override
    public void onError(String message) {
        signals.add(new Failed(message));
    }

    /** The next callback, waiting for it; on the handler's (virtual) thread. */
    public Signal take() throws InterruptedException {
        return signals.take();
    }
}
