package dev.sluice.transport.mockengine;

import dev.sluice.transport.engine.EngineListener;
import dev.sluice.transport.engine.FinishReason;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Hands one request's engine callbacks from the engine's thread to the HTTP handler's thread, which blocks in
 * {@link #take}. The engine thread never blocks: the queue is unbounded (a request has at most max_tokens tokens).
 */
final class EngineQueue implements EngineListener {
    /** One callback. */
    sealed interface Signal {
    }

    record Token(int tokenId) implements Signal {
    }

    record Finished(FinishReason reason, long promptTokens, long completionTokens) implements Signal {
    }

    record Failed(String message) implements Signal {
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

    Signal take() throws InterruptedException {
        return signals.take();
    }
}
