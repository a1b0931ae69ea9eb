package dev.sluice.transport.engine.http;

import static dev.sluice.transport.engine.http.EngineLoops.TEXT;
import static dev.sluice.transport.engine.http.EngineLoops.engine;
import static dev.sluice.transport.engine.http.EngineLoops.idle;
import static dev.sluice.transport.engine.http.EngineLoops.loops;
import static dev.sluice.transport.engine.http.EngineLoops.request;
import static dev.sluice.transport.engine.http.EngineLoops.stream;
import static dev.sluice.transport.engine.http.EngineLoops.submitOn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoop;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The completions exchange over real loopback sockets against a scripted engine: the request as sent, keep-alive
 * connections reused, a stale pooled one replaced once, and answers it must not take (cut, malformed, over the
 * limits) ending the request with a clear error.
 */
class RemoteExchangeTest {
    private static final String BODY = "{\"model\":\"m\",\"prompt\":\"hello\",\"max_tokens\":16,\"stream\":true,"
        + "\"stream_options\":{\"include_usage\":true}}";
    private final EventLoop loop = loops().get(0);

    @Test
    void shouldSendOneRequestAndReuseItsConnection() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream((index, peer) -> {
            while (peer.readRequest()) {
                peer.write(stream("one"));
            }
        }); HttpEngine engine = engine(upstream)) {
            for (int i = 0; i < 3; i++) {
                ExchangeRecorder recorder = new ExchangeRecorder();
                submitOn(loop, engine, request("r-" + i), recorder);
                assertEquals(List.of("text one", "finished STOP 3 1"), recorder.ended());
                assertEquals(1, idle(engine, loop), "the connection went back to the loop's pool");
            }
            assertEquals(1, upstream.connections(), "three requests on one connection");
            assertEquals("POST /v1/completions HTTP/1.1\r\nhost: 127.0.0.1:" + upstream.port()
                + "\r\ncontent-type: application/json\r\naccept: text/event-stream\r\nx-request-id: r-2\r\n"
                + "content-length: " + BODY.length() + "\r\n\r\n" + BODY, upstream.requests().get(2));
        }
    }

    @Test
    void shouldSendARequestAgainOnceOnANewConnectionWhenThePooledOneFailsBeforeAnyAnswer() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream((index, peer) -> {
            peer.readRequest();
            if (index == 0) {
                peer.write(stream("on 0"));
                // As an engine whose keep-alive timeout ends as the next request arrives.
                peer.readRequest();
                peer.close();
                return;
            }
            peer.write(stream("on " + index));
        }); HttpEngine engine = engine(upstream)) {
            ExchangeRecorder first = new ExchangeRecorder();
            submitOn(loop, engine, request("a"), first);
            assertEquals(List.of("text on 0", "finished STOP 3 1"), first.ended());

            ExchangeRecorder second = new ExchangeRecorder();
            submitOn(loop, engine, request("b"), second);
            assertEquals(List.of("text on 1", "finished STOP 3 1"), second.ended(), "answered on a new connection");
            assertEquals(2, upstream.connections());
            List<String> requests = upstream.requests();
            assertEquals(3, requests.size(), "a, b on the stale connection, b again on the new one: " + requests);
            assertTrue(requests.get(1).contains("x-request-id: b\r\n") && requests.get(2).contains(
                "x-request-id: b\r\n") && requests.get(2).endsWith(BODY), "the same request, whole, sent again");
        }
    }

    @Test
    void shouldNotSendAgainWhenTheEngineHadBegunToAnswer() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream((index, peer) -> {
            peer.readRequest();
            peer.write(stream("one"));
            peer.readRequest();
            peer.write("HTTP/1.1 200 OK\r\nContent-Ty");
            peer.close();
        }); HttpEngine engine = engine(upstream)) {
            ExchangeRecorder first = new ExchangeRecorder();
            submitOn(loop, engine, request("a"), first);
            first.ended();
            ExchangeRecorder second = new ExchangeRecorder();
            submitOn(loop, engine, request("b"), second);
            assertEquals(List.of("error UNAVAILABLE the engine could not be reached"), second.ended());
            assertEquals(1, upstream.connections(), "no second attempt");
            assertEquals(0, idle(engine, loop));
        }
    }

    @Test
    void shouldNotSendAgainOnANewConnectionClosedWithoutAnAnswer() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream((index, peer) -> {
            peer.readRequest();
            peer.close();
        }); HttpEngine engine = engine(upstream)) {
            ExchangeRecorder recorder = new ExchangeRecorder();
            submitOn(loop, engine, request("a"), recorder);
            assertEquals(List.of("error UNAVAILABLE the engine could not be reached"), recorder.ended());
            assertEquals(1, upstream.connections(), "a new connection is not tried again");
        }
    }

    @Test
    void shouldRefuseAHeadOverTheLimit() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream((index, peer) -> {
            peer.readRequest();
            peer.write("HTTP/1.1 200 OK\r\nX-Big: " + "b".repeat(EngineChannels.MAX_HEAD_BYTES) + "\r\n\r\n");
        }); HttpEngine engine = engine(upstream)) {
            ExchangeRecorder recorder = new ExchangeRecorder();
            submitOn(loop, engine, request("a"), recorder);
            assertEquals(List.of("error FAILED the engine's answer head is over 16 KiB"), recorder.ended());
        }
    }

    @Test
    void shouldPassOnARejectionAndPoolOnlyAConnectionWhoseAnswerWasReadToItsEnd() throws Exception {
        String rejection = "{\"error\":{\"message\":\"the prompt is too long\"}}";
        String big = "z".repeat(3 * 4096);
        try (ScriptedUpstream upstream = new ScriptedUpstream((index, peer) -> {
            peer.readRequest();
            if (index == 0) {
                peer.write("HTTP/1.1 400 Bad Request\r\nContent-Length: " + rejection.length() + "\r\n\r\n"
                    + rejection);
                peer.readRequest();
                peer.write("HTTP/1.1 500 Oops\r\nContent-Length: " + big.length() + "\r\n\r\n" + big);
            } else {
                // No length and not chunked: the body runs to the close.
                peer.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: "
                    + TEXT.formatted("x", "\"length\"") + "\n\n");
                peer.close();
            }
        }); HttpEngine engine = engine(upstream)) {
            ExchangeRecorder rejected = new ExchangeRecorder();
            submitOn(loop, engine, request("a"), rejected);
            assertEquals(List.of("error REJECTED the engine answered HTTP 400: the prompt is too long"),
                rejected.ended());
            assertEquals(1, idle(engine, loop), "read to its end: kept");

            ExchangeRecorder failed = new ExchangeRecorder();
            submitOn(loop, engine, request("b"), failed);
            assertEquals(List.of("error FAILED the engine answered HTTP 500"), failed.ended(),
                "only a rejection passes the engine's words on");
            assertEquals(0, idle(engine, loop), "only the first 4 KiB of the error read: closed");

            ExchangeRecorder toClose = new ExchangeRecorder();
            submitOn(loop, engine, request("c"), toClose);
            assertEquals(List.of("text x", "finished LENGTH 3 1"), toClose.ended());
            assertEquals(0, idle(engine, loop), "a body that ran to the close leaves nothing to reuse");
            assertEquals(2, upstream.connections());
        }
    }

    @Test
    void shouldPoolOnlyAConnectionTheEngineKeepsAlive() throws Exception {
        String events = "data: " + TEXT.formatted("x", "\"stop\"") + "\n\ndata: [DONE]\n\n";
        List<String> heads = List.of("HTTP/1.1 200 OK\r\nConnection: keep-alive, Close\r\n",
            "HTTP/1.0 200 OK\r\n", "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\n");
        try (ScriptedUpstream upstream = new ScriptedUpstream((index, peer) -> {
            while (peer.readRequest()) {
                peer.write(heads.get(index) + "Content-Length: " + events.length() + "\r\n\r\n" + events);
            }
        }); HttpEngine engine = engine(upstream)) {
            for (int i = 0; i < heads.size(); i++) {
                ExchangeRecorder recorder = new ExchangeRecorder();
                submitOn(loop, engine, request("r" + i), recorder);
                assertEquals(List.of("text x", "finished STOP 3 1"), recorder.ended());
                assertEquals(i + 1, upstream.connections(), "a new connection after one the engine closes");
            }
            assertEquals(1, idle(engine, loop), "only the HTTP/1.0 connection kept alive is pooled");
        }
    }

    @Test
    void shouldReportACutChunkedBody() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream((index, peer) -> {
            peer.readRequest();
            String whole = ScriptedUpstream.chunkedEvents(TEXT.formatted("one", "null"), TEXT.formatted("two",
                "null"));
            peer.write(whole.substring(0, whole.length() - 12));
            peer.close();
        }); HttpEngine engine = engine(upstream)) {
            ExchangeRecorder recorder = new ExchangeRecorder();
            submitOn(loop, engine, request("a"), recorder);
            assertEquals(List.of("text one", "error FAILED the engine closed the stream before it ended"),
                recorder.ended());
            assertEquals(0, idle(engine, loop));
        }
    }

    @Test
    void shouldSendNoRequestWhoseIdWouldForgeAHeader() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream((index, peer) -> {
            while (peer.readRequest()) {
                peer.write(stream("one"));
            }
        }); HttpEngine engine = engine(upstream)) {
            ExchangeRecorder recorder = new ExchangeRecorder();
            engine.submit(request("a\r\nx-injected: 1"), recorder);
            assertEquals(List.of("error FAILED the request could not be sent to the engine"), recorder.ended());
            assertEquals(0, upstream.connections(), "nothing sent");
            assertEquals(0, engine.load(0).runningRequests());
        }
    }

    @Test
    void shouldSayWhenTheEngineRefusesTheConnection() throws Exception {
        // A port just closed by a socket that nothing accepted on: a scripted upstream's listener, closed while its
        // accept loop is blocked, may still take a connection for a moment (and then reset it).
        int port;
        try (ServerSocket gone = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = gone.getLocalPort();
        }
        try (HttpEngine engine = engine("http://127.0.0.1:" + port, Duration.ofSeconds(10), Duration.ofSeconds(10))) {
            ExchangeRecorder recorder = new ExchangeRecorder();
            engine.submit(request("a"), recorder);
            assertEquals(List.of("error UNAVAILABLE the engine refused the connection"), recorder.ended());
            assertEquals(0, engine.load(0).runningRequests());
        }
    }

    @Test
    void shouldGiveEachConcurrentRequestItsOwnAnswerOnPooledConnections() throws Exception {
        int threads = 16;
        int each = 40;
        try (ScriptedUpstream upstream = new ScriptedUpstream((index, peer) -> {
            while (peer.readRequest()) {
                peer.write(stream(peer.requestId()));
            }
        }); HttpEngine engine = engine(upstream)) {
            List<String> wrong = new CopyOnWriteArrayList<>();
            List<Thread> running = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                running.add(Thread.ofVirtual().start(() -> {
                    for (int i = 0; i < each; i++) {
                        String id = "t" + thread + "-" + i;
                        ExchangeRecorder recorder = new ExchangeRecorder();
                        try {
                            engine.submit(request(id), recorder);
                            List<String> calls = recorder.ended();
                            if (!calls.equals(List.of("text " + id, "finished STOP 3 1"))) {
                                wrong.add(id + " got " + calls);
                            }
                        } catch (InterruptedException | RuntimeException | AssertionError e) {
                            wrong.add(id + " failed: " + e);
                        }
                    }
                }));
            }
            for (Thread thread : running) {
                thread.join();
            }
            assertEquals(List.of(), wrong);
            // Each request runs on the next loop: a loop has at most as many connections as requests ran on it at once.
            assertTrue(upstream.connections() <= threads * loops().size(), "at most one connection per concurrent "
                + "request on each loop, was " + upstream.connections());
            int kept = 0;
            for (EventLoop other : loops()) {
                kept += idle(engine, other);
            }
            assertEquals(upstream.connections(), kept, "every connection went back to its loop's pool");
        }
    }
}
