package dev.sluice.transport.engine.http;

import static dev.sluice.transport.engine.http.EngineLoops.TEXT;
import static dev.sluice.transport.engine.http.EngineLoops.engine;
import static dev.sluice.transport.engine.http.EngineLoops.request;
import static dev.sluice.transport.engine.http.EngineLoops.stream;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.transport.engine.EngineStream;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A request submitted from a thread that is no event loop is carried out on one of the shared loops, whose thread
 * makes every listener call; a cancel mid-stream, from another thread or from
 * inside the listener, closes the engine's connection, so the engine sees the client go, and ends the request as
 * cancelled with nothing delivered after it.
 */
class HttpEngineLoopTest {
    @Test
    void shouldCarryARequestOutOnAnEventLoop() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream((connection, peer) -> {
            while (peer.readRequest()) {
                peer.write(stream("Hi", " there"));
            }
        }); HttpEngine engine = engine(upstream)) {
            ExchangeRecorder recorder = new ExchangeRecorder();
            EngineStream call = engine.submit(request("a"), recorder);
            assertEquals(List.of("text Hi", "text  there", "finished STOP 3 2"), recorder.ended());
            Thread loop = recorder.threads.get(0);
            assertTrue(loop.getName().startsWith("sluice-loop-"), "on a shared loop, was " + loop.getName());
            assertEquals(List.of(loop, loop, loop), recorder.threads, "every callback from that loop's thread");
            assertEquals(0, engine.load(0).runningRequests(), "the ended exchange left the engine's live set");
            call.cancel();
            assertFalse(Thread.currentThread().isInterrupted(), "a cancel interrupts nobody");
            assertEquals(3, on(recorder), "and a cancel after the end reports nothing more");
        }
    }

    @Test
    void shouldCloseTheEngineConnectionOfARequestCancelledMidStream() throws Exception {
        CountDownLatch clientGone = new CountDownLatch(1);
        try (ScriptedUpstream upstream = new ScriptedUpstream((connection, peer) -> {
            peer.readRequest();
            String answer = ScriptedUpstream.chunkedEvents(TEXT.formatted("Hi", "null"));
            // The first event, then nothing: the stream stays open until the client goes.
            peer.write(answer.substring(0, answer.lastIndexOf("0\r\n\r\n")));
            if (!peer.readRequest()) {
                clientGone.countDown();
            }
        }); HttpEngine engine = engine(upstream)) {
            ExchangeRecorder recorder = new ExchangeRecorder();
            EngineStream call = engine.submit(request("b"), recorder);
            recorder.awaitText();
            call.cancel();
            assertEquals(List.of("text Hi", "finished CANCELLED 3 1"), recorder.ended());
            assertTrue(clientGone.await(10, TimeUnit.SECONDS), "the engine saw its connection close");
            assertEquals(0, engine.load(0).runningRequests());
        }
    }

    @Test
    void shouldDeliverNothingMoreAfterACancelFromInsideTheListener() throws Exception {
        CountDownLatch clientGone = new CountDownLatch(1);
        try (ScriptedUpstream upstream = new ScriptedUpstream((connection, peer) -> {
            peer.readRequest();
            // The whole answer in one write: what follows the first text is read with it.
            peer.write(stream("a", "b", "c"));
            if (!peer.readRequest()) {
                clientGone.countDown();
            }
        }); HttpEngine engine = engine(upstream)) {
            EngineStream[] stream = new EngineStream[1];
            ExchangeRecorder recorder = new ExchangeRecorder() {
                @Override
                public void onText(String text) {
                    super.onText(text);
                    stream[0].cancel();
                }
            };
            // Set on the loop that then calls the listener, before it can.
            EngineLoops.on(EngineLoops.loops().get(0), () -> stream[0] = engine.submit(request("c"), recorder));
            assertEquals(List.of("text a", "finished CANCELLED 3 1"), recorder.ended());
            assertTrue(clientGone.await(10, TimeUnit.SECONDS), "the engine saw its connection close");
        }
    }

    /** How many calls {@code recorder} has, read on each shared loop after what they were doing. */
    private static int on(ExchangeRecorder recorder) throws Exception {
        for (io.netty.channel.EventLoop loop : EngineLoops.loops()) {
            EngineLoops.on(loop, () -> null);
        }
        return recorder.calls.size();
    }
}
