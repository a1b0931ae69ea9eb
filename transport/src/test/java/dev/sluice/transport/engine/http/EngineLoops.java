package dev.sluice.transport.engine.http;

import dev.sluice.transport.engine.EngineListener;
import dev.sluice.transport.engine.EngineRequest;
import dev.sluice.transport.engine.EngineRuntimeConfig;
import dev.sluice.transport.engine.EngineStream;
import dev.sluice.transport.io.EventLoops;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.EventExecutor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/** Fixtures of the remote engine's tests: engines on a scripted upstream, and work done on a given event loop. */
final class EngineLoops {
    /** A chunk of a completion stream with {@code text} and a finish reason ({@code null}, or {@code "stop"}...). */
    static final String TEXT = "{\"choices\":[{\"index\":0,\"text\":\"%s\",\"finish_reason\":%s}]}";

    private EngineLoops() {
    }

    /** An engine on {@code upstream} with a 5 s connect and 60 s first-token timeout. */
    static HttpEngine engine(ScriptedUpstream upstream) {
        return engine(upstream.url(), Duration.ofSeconds(60), HttpEngineSettings.DEFAULT_STREAM_IDLE_TIMEOUT);
    }

    static HttpEngine engine(String url, Duration firstToken, Duration idle) {
        return new HttpEngine(0, HttpEngineSettings.of(url, "m", Duration.ofSeconds(5), firstToken,
            new EngineRuntimeConfig(16, 16, 16, 1, 1)).withStreamIdleTimeout(idle));
    }

    /** A request with the prompt text {@code hello} (token ids 1, 2, 3) for at most 16 tokens. */
    static EngineRequest request(String id) {
        return new EngineRequest(id, new int[] {1, 2, 3}, 16, 0, "hello");
    }

    /** A chunked stream of one text event per piece, the last with finish reason {@code stop}, then [DONE]. */
    static String stream(String... pieces) {
        String[] events = new String[pieces.length + 1];
        for (int i = 0; i < pieces.length; i++) {
            events[i] = TEXT.formatted(pieces[i], i == pieces.length - 1 ? "\"stop\"" : "null");
        }
        events[pieces.length] = "[DONE]";
        return ScriptedUpstream.chunkedEvents(events);
    }

    /** Every shared loop, in the group's order. */
    static List<EventLoop> loops() {
        List<EventLoop> loops = new ArrayList<>();
        for (EventExecutor loop : EventLoops.shared()) {
            loops.add((EventLoop) loop);
        }
        return loops;
    }

    /** What {@code work} returns, run on {@code loop}. */
    static <T> T on(EventLoop loop, Callable<T> work) throws Exception {
        return loop.submit(work).get(10, TimeUnit.SECONDS);
    }

    /** Submits on {@code loop}, as the frontend does from a client connection's loop. */
    static EngineStream submitOn(EventLoop loop, HttpEngine engine, EngineRequest request, EngineListener listener)
        throws Exception {
        return on(loop, () -> engine.submit(request, listener));
    }

    /** The idle connections {@code engine} keeps on {@code loop}. */
    static int idle(HttpEngine engine, EventLoop loop) throws Exception {
        return on(loop, () -> engine.channels().idle(loop));
    }
}
