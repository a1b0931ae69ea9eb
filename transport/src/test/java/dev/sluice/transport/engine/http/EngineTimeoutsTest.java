package dev.sluice.transport.engine.http;

import static dev.sluice.transport.engine.http.EngineLoops.TEXT;
import static dev.sluice.transport.engine.http.EngineLoops.engine;
import static dev.sluice.transport.engine.http.EngineLoops.loops;
import static dev.sluice.transport.engine.http.EngineLoops.request;
import static dev.sluice.transport.engine.http.EngineLoops.submitOn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoop;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The first-token and stream-idle timeouts, kept by tasks on the exchange's loop: an engine that sends no text, or
 * stops sending mid-stream, ends the request with a timeout and has its connection closed (it sees the client go).
 */
class EngineTimeoutsTest {
    /** The head of a chunked event stream, and a chunk of one event. */
    private static final String HEAD = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
        + "Transfer-Encoding: chunked\r\n\r\n";

    private static String chunk(String event) {
        String data = "data: " + event + "\n\n";
        return Integer.toHexString(data.length()) + "\r\n" + data + "\r\n";
    }

    /** An engine that answers with {@code answer} and then nothing, and counts down when the client goes. */
    private static ScriptedUpstream silentAfter(String answer, CountDownLatch clientGone) throws Exception {
        return new ScriptedUpstream((index, peer) -> {
            peer.readRequest();
            peer.write(answer);
            if (!peer.readRequest()) {
                clientGone.countDown();
            }
        });
    }

    @Test
    void shouldEndARequestWithoutTextWithinTheFirstTokenTimeout() throws Exception {
        CountDownLatch clientGone = new CountDownLatch(1);
        try (ScriptedUpstream upstream = silentAfter(HEAD, clientGone);
             HttpEngine engine = engine(upstream.url(), Duration.ofMillis(200), Duration.ofSeconds(60))) {
            ExchangeRecorder recorder = new ExchangeRecorder();
            engine.submit(request("a"), recorder);
            assertEquals(List.of("error TIMEOUT the engine sent no token within 200 ms"), recorder.ended());
            assertTrue(clientGone.await(10, TimeUnit.SECONDS), "the engine saw its connection close");
        }
    }

    @Test
    void shouldEndAStreamThatGoesSilentForTheIdleTimeout() throws Exception {
        CountDownLatch clientGone = new CountDownLatch(1);
        // The idle check starts at the first-token deadline. That deadline is long enough for the first text of a
        // cold JVM's first exchange on a busy machine (at 100 ms it sometimes was not): the idle timeout is the one
        // that must end the stream.
        try (ScriptedUpstream upstream = silentAfter(HEAD + chunk(TEXT.formatted("Hi", "null")), clientGone);
             HttpEngine engine = engine(upstream.url(), Duration.ofSeconds(2), Duration.ofMillis(300))) {
            ExchangeRecorder recorder = new ExchangeRecorder();
            engine.submit(request("a"), recorder);
            assertEquals(List.of("text Hi", "error TIMEOUT the engine sent nothing for 300 ms mid-stream"),
                recorder.ended());
            assertTrue(clientGone.await(10, TimeUnit.SECONDS), "the engine saw its connection close");
        }
    }

    @Test
    void shouldLetAStreamRunWithoutAnIdleLimitWhenItIsZero() throws Exception {
        CountDownLatch finish = new CountDownLatch(1);
        EventLoop loop = loops().get(0);
        try (ScriptedUpstream upstream = new ScriptedUpstream((index, peer) -> {
            peer.readRequest();
            peer.write(HEAD + chunk(TEXT.formatted("Hi", "null")));
            try {
                finish.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            peer.write(chunk(TEXT.formatted("!", "\"stop\"")) + chunk("[DONE]") + "0\r\n\r\n");
        }); HttpEngine engine = engine(upstream.url(), Duration.ofSeconds(1), Duration.ZERO)) {
            ExchangeRecorder recorder = new ExchangeRecorder();
            submitOn(loop, engine, request("a"), recorder);
            recorder.awaitText();
            // A task of the exchange's loop due after the first-token deadline runs after the first-token task, and
            // after an idle check that task would have set for the stream's silence.
            int running = loop.schedule(() -> engine.load(0).runningRequests(), 1200, TimeUnit.MILLISECONDS)
                .get(10, TimeUnit.SECONDS);
            assertEquals(1, running, "past the first-token deadline, with text and no idle limit: still running");
            finish.countDown();
            assertEquals(List.of("text Hi", "text !", "finished STOP 3 2"), recorder.ended());
        }
    }
}
