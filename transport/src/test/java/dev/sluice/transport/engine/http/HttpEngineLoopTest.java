package dev.sluice.transport.engine.http;

import static dev.sluice.transport.engine.http.EngineLoops.TEXT;
import static dev.sluice.transport.engine.http.EngineLoops.engine;
import static dev.sluice.transport.engine.http.EngineLoops.idle;
import static dev.sluice.transport.engine.http.EngineLoops.loops;
import static dev.sluice.transport.engine.http.EngineLoops.on;
import static dev.sluice.transport.engine.http.EngineLoops.request;
import static dev.sluice.transport.engine.http.EngineLoops.stream;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.transport.engine.EngineRequest;
import dev.sluice.transport.engine.FinishReason;
import io.netty.channel.EventLoop;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Loop affinity: a request submitted on one of the shared event loops runs on that loop, on a connection pooled for
 * that loop, and its listener hears every call on that loop's thread, never from inside {@code submit}; a request
 * from any other thread is called from a loop thread; the engine's close stops what runs.
 */
class HttpEngineLoopTest {
    /** A listener that notes, with each call, whether it came from inside {@code submit}. */
    private static final class InsideSubmit extends ExchangeRecorder {
        volatile boolean submitting;
        final List<Boolean> inside = new CopyOnWriteArrayList<>();

        @Override
        public void onText(String text) {
            inside.add(submitting);
            super.onText(text);
        }

        @Override
        public void onFinished(FinishReason reason, long promptTokens, long completionTokens) {
            inside.add(submitting);
            super.onFinished(reason, promptTokens, completionTokens);
        }
    }

    @Test
    void shouldCallTheListenerOnTheSubmittingLoopNeverFromInsideSubmit() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream((index, peer) -> {
            while (peer.readRequest()) {
                peer.write(stream("a", "b", "c"));
            }
        }); HttpEngine engine = engine(upstream)) {
            for (EventLoop loop : loops()) {
                InsideSubmit listener = new InsideSubmit();
                Thread submitter = on(loop, () -> {
                    listener.submitting = true;
                    engine.submit(request("on-loop"), listener);
                    listener.submitting = false;
                    return Thread.currentThread();
                });
                assertEquals(List.of("text a", "text b", "text c", "finished STOP 3 3"), listener.ended());
                assertEquals(List.of(submitter, submitter, submitter, submitter), listener.threads,
                    "every call on the submitting loop's thread");
                assertFalse(listener.inside.contains(true), "no call from inside submit");
            }
        }
    }

    @Test
    void shouldCallAListenerOfAnotherThreadFromALoopThread() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream((index, peer) -> {
            while (peer.readRequest()) {
                peer.write(stream("a"));
            }
        }); HttpEngine engine = engine(upstream)) {
            ExchangeRecorder listener = new ExchangeRecorder();
            engine.submit(request("off-loop"), listener);
            listener.ended();
            Thread caller = listener.threads.get(0);
            assertTrue(caller.getName().startsWith("sluice-loop-") && caller != Thread.currentThread(),
                "called on a loop, was " + caller.getName());
            assertEquals(List.of(caller, caller), listener.threads);
        }
    }

    @Test
    void shouldReuseOneConnectionPerLoop() throws Exception {
        List<EventLoop> loops = loops();
        assumeTrue(loops.size() >= 2, "needs two event loops (two cores)");
        try (ScriptedUpstream upstream = new ScriptedUpstream((index, peer) -> {
            while (peer.readRequest()) {
                peer.write(stream("on " + index));
            }
        }); HttpEngine engine = engine(upstream)) {
            String[] answers = new String[4];
            for (int i = 0; i < 4; i++) {
                EventLoop loop = loops.get(i % 2);
                ExchangeRecorder listener = new ExchangeRecorder();
                EngineRequest request = request("r" + i);
                on(loop, () -> engine.submit(request, listener));
                answers[i] = listener.ended().get(0);
            }
            assertEquals(2, upstream.connections(), "one connection per loop");
            assertEquals(answers[0], answers[2], "the first loop's requests on its connection");
            assertEquals(answers[1], answers[3], "the second loop's requests on its own");
            assertTrue(!answers[0].equals(answers[1]), "two connections: " + List.of(answers));
            assertEquals(1, idle(engine, loops.get(0)));
            assertEquals(1, idle(engine, loops.get(1)));
        }
    }

    @Test
    void shouldStopEveryRunningRequestWhenTheEngineCloses() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream((index, peer) -> {
            peer.readRequest();
            String answer = ScriptedUpstream.chunkedEvents(TEXT.formatted("Hi", "null"));
            peer.write(answer.substring(0, answer.lastIndexOf("0\r\n\r\n")));
            peer.readRequest();
        })) {
            HttpEngine engine = engine(upstream);
            ExchangeRecorder listener = new ExchangeRecorder();
            engine.submit(request("a"), listener);
            listener.awaitText();
            assertEquals(1, engine.load(0).runningRequests());
            engine.close();
            assertEquals(List.of("text Hi", "error UNAVAILABLE the engine stopped"), listener.ended());
            assertEquals(0, engine.load(0).runningRequests());
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> engine.submit(request("b"), new ExchangeRecorder()));
            assertTrue(refused.getMessage().endsWith("is closed"), refused.getMessage());
        }
    }
}
