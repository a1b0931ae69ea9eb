package dev.sluice.transport.testing;

import dev.sluice.transport.engine.EngineListener;
import dev.sluice.transport.engine.EngineStream;
import dev.sluice.transport.engine.FinishReason;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Records one request's callbacks, with the clock reading at each, and can cancel its own stream after a number
 * of tokens. Thread-safe (callbacks may come from a runner thread while a test thread reads).
 */
public final class RecordingListener implements EngineListener {
    private final LongSupplier clock;
    private final List<Integer> tokens = new ArrayList<>();
    private final List<Long> tokenTimes = new ArrayList<>();
    private final CountDownLatch done = new CountDownLatch(1);
    private int cancelAfter = -1;
    private EngineStream stream;
    private FinishReason finishReason;
    private long promptTokens = -1;
    private long completionTokens = -1;
    private String error;
    private int terminalCalls;

    public RecordingListener(LongSupplier clock) {
        this.clock = clock;
    }

    public RecordingListener() {
        this(() -> 0L);
    }

    /** Cancels {@code stream} from inside {@link #onToken} once {@code count} tokens have arrived. */
    public synchronized RecordingListener cancelAfter(int count, EngineStream target) {
        this.cancelAfter = count;
        this.stream = target;
        return this;
    }

    @Override
    public synchronized void onToken(int tokenId) {
        tokens.add(tokenId);
        tokenTimes.add(clock.getAsLong());
        if (tokens.size() == cancelAfter) {
            stream.cancel();
        }
    }

    @Override
    public synchronized void onFinished(FinishReason reason, long prompt, long completion) {
        finishReason = reason;
        promptTokens = prompt;
        completionTokens = completion;
        terminalCalls++;
        done.countDown();
    }

    @Override
    public synchronized void onError(String message) {
        error = message;
        terminalCalls++;
        done.countDown();
    }

    public boolean await(long seconds) throws InterruptedException {
        return done.await(seconds, TimeUnit.SECONDS);
    }

    public synchronized List<Integer> tokens() {
        return List.copyOf(tokens);
    }

    public synchronized List<Long> tokenTimes() {
        return List.copyOf(tokenTimes);
    }

    public synchronized FinishReason finishReason() {
        return finishReason;
    }

    public synchronized long promptTokens() {
        return promptTokens;
    }

    public synchronized long completionTokens() {
        return completionTokens;
    }

    public synchronized String error() {
        return error;
    }

    /** How many of onFinished/onError arrived; the contract allows exactly one. */
    public synchronized int terminalCalls() {
        return terminalCalls;
    }
}
