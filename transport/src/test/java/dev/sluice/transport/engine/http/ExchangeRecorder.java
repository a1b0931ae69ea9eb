package dev.sluice.transport.engine.http;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.transport.engine.EngineListener;
import dev.sluice.transport.engine.ErrorKind;
import dev.sluice.transport.engine.FinishReason;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Records a remote engine's callbacks for one request as text ({@code text Hi}, {@code finished STOP 3 2},
 * {@code error TIMEOUT ...}), each with the thread that made it, and lets a test wait for the first text and the
 * end. Thread-safe.
 */
class ExchangeRecorder implements EngineListener {
    final List<String> calls = new CopyOnWriteArrayList<>();
    final List<Thread> threads = new CopyOnWriteArrayList<>();
    final CountDownLatch firstText = new CountDownLatch(1);
    private final CountDownLatch end = new CountDownLatch(1);

    @Override
    public void onToken(int tokenId) {
        throw new AssertionError("a remote engine sends text");
    }

    @Override
    public void onText(String text) {
        record("text " + text);
        firstText.countDown();
    }

    @Override
    public void onFinished(FinishReason reason, long promptTokens, long completionTokens) {
        record("finished " + reason + " " + promptTokens + " " + completionTokens);
        end.countDown();
    }

    @Override
    public void onError(String message) {
        throw new AssertionError("a remote engine says why it failed");
    }

    @Override
    public void onError(ErrorKind kind, String message) {
        record("error " + kind + " " + message);
        end.countDown();
    }

    private void record(String call) {
        calls.add(call);
        threads.add(Thread.currentThread());
    }

    /** The calls, once the request has ended (failing when it does not within 10 s). */
    List<String> ended() throws InterruptedException {
        assertTrue(end.await(10, TimeUnit.SECONDS), "the request ended; calls so far: " + calls);
        return List.copyOf(calls);
    }

    /** Waits for the first text (failing when none comes within 10 s). */
    void awaitText() throws InterruptedException {
        assertTrue(firstText.await(10, TimeUnit.SECONDS), "text came; calls so far: " + calls);
    }
}
