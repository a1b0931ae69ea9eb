package dev.sluice.transport.engine.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.transport.engine.EngineRuntimeConfig;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The engine client over real loopback sockets: one write per request, keep-alive connections reused, a stale
 * pooled one replaced once, and answers it must not take refused with a clear error.
 */
class UpstreamClientTest {
    private static final String BODY = "{\"prompt\":\"hi\"}";

    private static UpstreamClient client(ScriptedUpstream upstream) {
        return new UpstreamClient(HttpEngineSettings.of(upstream.url(), "m", Duration.ofSeconds(5),
            Duration.ofSeconds(10), new EngineRuntimeConfig(16, 16, 16, 1, 1)), Duration.ofSeconds(10));
    }

    private static UpstreamConnection post(UpstreamClient client, String id) throws IOException {
        return client.post(id, out -> out.write(BODY.getBytes(StandardCharsets.UTF_8)));
    }

    /** The whole body, read to its end. */
    private static String body(UpstreamConnection connection) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        assertEquals(UpstreamConnection.BodyEnd.ENDED, connection.readBody((bytes, offset, length) -> {
            body.write(bytes, offset, length);
            return true;
        }));
        return body.toString(StandardCharsets.UTF_8);
    }

    @Test
    void shouldSendOneRequestAndReuseItsConnection() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream((index, peer) -> {
            while (peer.readRequest()) {
                peer.write(ScriptedUpstream.chunkedEvents("one", "[DONE]"));
            }
        }); UpstreamClient client = client(upstream)) {
            for (int i = 0; i < 3; i++) {
                UpstreamConnection connection = post(client, "r-" + i);
                assertEquals(200, connection.head().status());
                assertEquals("data: one\n\ndata: [DONE]\n\n", body(connection));
                client.release(connection);
                assertEquals(1, client.idleConnections(), "the connection went back to the pool");
            }
            assertEquals(1, upstream.connections(), "three requests on one connection");
            assertEquals("POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1:" + upstream.port()
                + "\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\nx-request-id: r-2\r\n"
                + "Content-Length: " + BODY.length() + "\r\n\r\n" + BODY, upstream.requests().get(2));
        }
    }

    @Test
    void shouldSendARequestAgainOnceOnANewConnectionWhenThePooledOneWasClosed() throws Exception {
        CountDownLatch firstClosed = new CountDownLatch(1);
        try (ScriptedUpstream upstream = new ScriptedUpstream((index, peer) -> {
            while (peer.readRequest()) {
                peer.write(ScriptedUpstream.chunkedEvents("on " + index));
                if (index == 0) {
                    // As an engine does when its keep-alive timeout ends.
                    peer.close();
                    firstClosed.countDown();
                    return;
                }
            }
        }); UpstreamClient client = client(upstream)) {
            UpstreamConnection first = post(client, "a");
            assertEquals("data: on 0\n\n", body(first));
            client.release(first);
            assertTrue(firstClosed.await(10, TimeUnit.SECONDS));

            UpstreamConnection second = post(client, "b");
            assertEquals("data: on 1\n\n", body(second), "answered on a new connection");
            client.release(second);
            assertEquals(2, upstream.connections());
            assertEquals(2, upstream.requests().size(), "the retried request arrived once, whole");
            assertTrue(upstream.requests().get(1).contains("x-request-id: b\r\n")
                && upstream.requests().get(1).endsWith(BODY));
        }
    }

    @Test
    void shouldNotSendAgainWhenTheEngineHadBegunToAnswer() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream((index, peer) -> {
            peer.readRequest();
            peer.write(ScriptedUpstream.chunkedEvents("one"));
            peer.readRequest();
            peer.write("HTTP/1.1 200 OK\r\nContent-Ty");
            peer.close();
        }); UpstreamClient client = client(upstream)) {
            UpstreamConnection first = post(client, "a");
            body(first);
            client.release(first);
            EOFException e = assertThrows(EOFException.class, () -> post(client, "b"));
            assertEquals("the engine closed the connection in the middle of its answer's head", e.getMessage());
            assertEquals(1, upstream.connections(), "no second attempt");
            assertEquals(0, client.idleConnections());
        }
    }

    @Test
    void shouldSayWhenANewConnectionIsClosedWithoutAnAnswer() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream((index, peer) -> {
            peer.readRequest();
            peer.close();
        }); UpstreamClient client = client(upstream)) {
            EOFException e = assertThrows(EOFException.class, () -> post(client, "a"));
            assertEquals("the engine closed the connection without answering", e.getMessage());
            assertEquals(1, upstream.connections(), "a new connection is not tried again");
        }
    }

    @Test
    void shouldRefuseAHeadOverTheLimit() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream((index, peer) -> {
            peer.readRequest();
            peer.write("HTTP/1.1 200 OK\r\nX-Big: " + "b".repeat(UpstreamConnection.BUFFER_BYTES) + "\r\n\r\n");
        }); UpstreamClient client = client(upstream)) {
            UpstreamProtocolException e = assertThrows(UpstreamProtocolException.class, () -> post(client, "a"));
            assertEquals("the engine's answer head is over 16 KiB", e.getMessage());
        }
    }

    @Test
    void shouldReadLengthAndCloseDelimitedBodiesAndPoolOnlyWhatWasReadToItsEnd() throws Exception {
        String big = "z".repeat(3 * UpstreamConnection.BUFFER_BYTES);
        try (ScriptedUpstream upstream = new ScriptedUpstream((index, peer) -> {
            peer.readRequest();
            if (index == 0) {
                peer.write("HTTP/1.1 400 Bad Request\r\nContent-Length: " + big.length() + "\r\n\r\n" + big);
                peer.readRequest();
                peer.write("HTTP/1.1 200 OK\r\nContent-Length: " + big.length() + "\r\n\r\n" + big);
            } else {
                peer.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: x\n\n");
                peer.close();
            }
        }); UpstreamClient client = client(upstream)) {
            UpstreamConnection first = post(client, "a");
            assertEquals(400, first.head().status());
            assertArrayEquals(big.getBytes(StandardCharsets.UTF_8), first.readBody(big.length()));
            client.release(first);
            assertEquals(1, client.idleConnections(), "read to its end: kept");

            UpstreamConnection partly = post(client, "b");
            assertEquals(10, partly.readBody(10).length);
            assertFalse(partly.reusable());
            client.release(partly);
            assertEquals(0, client.idleConnections(), "not read to its end: closed");

            UpstreamConnection toClose = post(client, "c");
            assertEquals("data: x\n\n", body(toClose));
            client.release(toClose);
            assertEquals(0, client.idleConnections(), "a body that ran to the close leaves nothing to reuse");
        }
    }

    @Test
    void shouldReportACutChunkedBody() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream((index, peer) -> {
            peer.readRequest();
            String whole = ScriptedUpstream.chunkedEvents("one", "two");
            peer.write(whole.substring(0, whole.length() - 12));
            peer.close();
        }); UpstreamClient client = client(upstream)) {
            UpstreamConnection connection = post(client, "a");
            List<String> pieces = new ArrayList<>();
            assertEquals(UpstreamConnection.BodyEnd.CUT, connection.readBody((bytes, offset, length) -> {
                pieces.add(new String(bytes, offset, length, StandardCharsets.UTF_8));
                return true;
            }));
            assertEquals("data: one\n\ndata: ", String.join("", pieces), "what came before the cut");
            client.release(connection);
            assertEquals(0, client.idleConnections());
        }
    }

    @Test
    void shouldGiveEachConcurrentRequestItsOwnAnswerOnPooledConnections() throws Exception {
        int threads = 16;
        int each = 40;
        try (ScriptedUpstream upstream = new ScriptedUpstream((index, peer) -> {
            while (peer.readRequest()) {
                peer.write(ScriptedUpstream.chunkedEvents(peer.requestId(), "[DONE]"));
            }
        }); UpstreamClient client = client(upstream)) {
            List<String> wrong = new CopyOnWriteArrayList<>();
            List<Thread> running = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                running.add(Thread.ofVirtual().start(() -> {
                    for (int i = 0; i < each; i++) {
                        String id = "t" + thread + "-" + i;
                        try {
                            UpstreamConnection connection = post(client, id);
                            String answer = body(connection);
                            client.release(connection);
                            if (!answer.equals("data: " + id + "\n\ndata: [DONE]\n\n")) {
                                wrong.add(id + " got " + answer);
                            }
                        } catch (IOException | RuntimeException e) {
                            wrong.add(id + " failed: " + e);
                        }
                    }
                }));
            }
            for (Thread thread : running) {
                thread.join();
            }
            assertEquals(List.of(), wrong);
            assertTrue(upstream.connections() <= threads, "at most one connection per concurrent request, was "
                + upstream.connections());
            assertEquals(upstream.connections(), client.idleConnections(), "every connection went back");
        }
    }
}
