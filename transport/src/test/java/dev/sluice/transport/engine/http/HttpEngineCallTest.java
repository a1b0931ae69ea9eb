package dev.sluice.transport.engine.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.sluice.transport.engine.EngineCall;
import dev.sluice.transport.engine.EngineListener;
import dev.sluice.transport.engine.EngineRequest;
import dev.sluice.transport.engine.EngineRuntimeConfig;
import dev.sluice.transport.engine.FinishReason;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * A request the caller runs ({@link HttpEngine#call}): the caller's thread does the exchange and makes every
 * listener call before {@code run} returns, and a cancel, during the exchange or after it, never leaves an
 * interrupt on that thread.
 */
class HttpEngineCallTest {
    private static final String TEXT = "{\"choices\":[{\"index\":0,\"text\":\"%s\",\"finish_reason\":%s}]}";

    /** Records each callback with the thread that made it. */
    private static final class Recorder implements EngineListener {
        final List<String> calls = new CopyOnWriteArrayList<>();
        final List<Thread> threads = new CopyOnWriteArrayList<>();
        final CountDownLatch firstText = new CountDownLatch(1);

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
            record("finished " + reason + " " + completionTokens);
        }

        @Override
        public void onError(String message) {
            record("error " + message);
        }

        private void record(String call) {
            calls.add(call);
            threads.add(Thread.currentThread());
        }
    }

    private static HttpEngine engine(ScriptedUpstream upstream) {
        return new HttpEngine(0, HttpEngineSettings.of(upstream.url(), "m", Duration.ofSeconds(5),
            Duration.ofSeconds(60), new EngineRuntimeConfig(16, 16, 16, 1, 1)));
    }

    private static EngineRequest request(String id) {
        return new EngineRequest(id, new int[] {1, 2, 3}, 16, 0, "hello");
    }

    /** What a test does, on a virtual thread as the frontend's handlers are, rethrowing what it threw. */
    private static void onVirtualThread(ThrowingRunnable body) throws Exception {
        Exception[] failure = new Exception[1];
        AssertionError[] assertion = new AssertionError[1];
        Thread.ofVirtual().start(() -> {
            try {
                body.run();
            } catch (Exception e) {
                failure[0] = e;
            } catch (AssertionError e) {
                assertion[0] = e;
            }
        }).join();
        if (assertion[0] != null) {
            throw assertion[0];
        }
        if (failure[0] != null) {
            throw failure[0];
        }
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    @Test
    void shouldRunTheWholeExchangeOnTheCallersVirtualThread() throws Exception {
        onVirtualThread(HttpEngineCallTest::runsOnTheCaller);
    }

    @Test
    void shouldEndACancelledCallOfAVirtualThreadAndLeaveNoInterruptBehind() throws Exception {
        onVirtualThread(HttpEngineCallTest::endsCancelled);
    }

    @Test
    void shouldEndACancelledCallOfAPlatformThreadOnAReaderOfItsOwn() throws Exception {
        endsCancelled();
    }

    private static void runsOnTheCaller() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream((connection, peer) -> {
            while (peer.readRequest()) {
                peer.write(ScriptedUpstream.chunkedEvents(TEXT.formatted("Hi", "null"),
                    TEXT.formatted(" there", "\"stop\""), "[DONE]"));
            }
        }); HttpEngine engine = engine(upstream)) {
            Recorder recorder = new Recorder();
            EngineCall call = engine.call(request("a"), recorder);
            assertEquals(List.of(), recorder.calls, "nothing happens before run");
            call.run();
            assertEquals(List.of("text Hi", "text  there", "finished STOP 2"), recorder.calls);
            assertEquals(List.of(Thread.currentThread(), Thread.currentThread(), Thread.currentThread()),
                recorder.threads, "every callback came from the thread that ran the call");
            assertEquals(0, engine.load(0).runningRequests(), "the ended exchange left the engine's live set");
            call.cancel();
            assertFalse(Thread.currentThread().isInterrupted(), "a cancel after the end interrupts nobody");
            assertEquals(3, recorder.calls.size(), "and reports nothing more");
        }
    }

    private static void endsCancelled() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (ScriptedUpstream upstream = new ScriptedUpstream((connection, peer) -> {
            peer.readRequest();
            String answer = ScriptedUpstream.chunkedEvents(TEXT.formatted("Hi", "null"));
            // The first event, then nothing: the stream stays open until the test is over.
            peer.write(answer.substring(0, answer.lastIndexOf("0\r\n\r\n")));
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }); HttpEngine engine = engine(upstream)) {
            Recorder recorder = new Recorder();
            EngineCall call = engine.call(request("b"), recorder);
            Thread canceller = Thread.ofVirtual().start(() -> {
                try {
                    recorder.firstText.await();
                } catch (InterruptedException e) {
                    return;
                }
                call.cancel();
            });
            call.run();
            canceller.join();
            release.countDown();
            assertEquals(List.of("text Hi", "finished CANCELLED 1"), recorder.calls);
            assertFalse(Thread.interrupted(), "the cancel's interrupt ended with the exchange");
        }
    }
}
