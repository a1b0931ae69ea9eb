package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.router.RouterContext;
import dev.sluice.transport.engine.sim.SimEngineContext;
import dev.sluice.transport.testing.Await;
import dev.sluice.transport.testing.RawHttp;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The connection limit, the header, body and idle timeouts and HTTP/1.0, through real sockets: the timeouts on a
 * frontend with short ones (1 s for a head, a body, and idle; short enough to wait for, long enough that a stalled test
 * thread on a busy machine does not miss its turn), the cap on one of 3 connections with timeouts nothing reaches.
 * Each test waits for the server to answer or close, never for a time.
 */
class ConnectionLimitsSystemTest {
    private static final String MODEL = "conn-model";
    private static final String LIVE = "GET /live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    private static Frontend frontend;
    /**
     * The same cap with timeouts no busy machine reaches, for the test that holds connections idle between its
     * exchanges: with 300 ms idle, a stalled test thread would see a held connection closed, and a free slot.
     */
    private static Frontend capped;

    @BeforeAll
    static void start() throws Exception {
        frontend = Frontend.start(settings().connections(new ConnectionLimits(3, Duration.ofSeconds(1),
            Duration.ofSeconds(1), Duration.ofSeconds(1))));
        capped = Frontend.start(settings().connections(new ConnectionLimits(3, Duration.ofMinutes(10),
            Duration.ofMinutes(10), Duration.ofMinutes(10))));
    }

    private static FrontendSettings settings() {
        return new FrontendSettings("127.0.0.1", 0, MODEL, 4096, 16, 529, null, Duration.ofSeconds(2),
            new RouterContext(), new EngineSetup.Simulated(new SimEngineContext().numGpuBlocks(1024).blockSize(16)
                .speedupRatio(50), 1), null);
    }

    @AfterAll
    static void stop() {
        frontend.close();
        capped.close();
    }

    @Test
    void shouldCloseAConnectionThatSendsNothingAfterTheHeaderTimeout() throws IOException {
        try (Socket socket = connect(frontend)) {
            assertEquals("", RawHttp.readToEnd(socket.getInputStream()), "closed unanswered");
        }
    }

    @Test
    void shouldCloseASlowlorisHeadAfterTheHeaderTimeoutThoughBytesKeepComing() throws IOException {
        try (Socket socket = connect(frontend)) {
            assertTrue(trickledHeadCut(socket), "the server kept a head that never ended for 20 s");
        }
    }

    @Test
    void shouldHoldALaterRequestsHeadToTheHeaderTimeoutThoughTheIdleTimeoutIsLonger() throws Exception {
        try (Frontend patient = Frontend.start(settings().connections(new ConnectionLimits(3, Duration.ofSeconds(1),
                 Duration.ofSeconds(1), Duration.ofMinutes(10))));
             Socket socket = connect(patient)) {
            assertTrue(exchange(socket, LIVE).startsWith("HTTP/1.1 200 OK"));
            // Idle for longer than a header timeout (well within the idle one), so that no check of the first request
            // is still pending; then the next head starts and trickles: its own deadline, not the idle one, ends it.
            LockSupport.parkNanos(1_500_000_000L);
            assertTrue(trickledHeadCut(socket), "the server kept a later head that never ended for 20 s");
        }
    }

    @Test
    void shouldCloseASlowPostAfterTheBodyTimeout() throws IOException {
        try (Socket socket = connect(frontend)) {
            socket.getOutputStream().write(("POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                + "application/json\r\nContent-Length: 200\r\n\r\n{\"model\":").getBytes(StandardCharsets.US_ASCII));
            String answer = RawHttp.readToEnd(socket.getInputStream());
            assertTrue(!answer.startsWith("HTTP/1.1 200"), answer);
        }
    }

    @Test
    void shouldCloseAKeptAliveConnectionAfterTheIdleTimeout() throws IOException {
        try (Socket socket = connect(frontend)) {
            socket.getOutputStream().write(LIVE.getBytes(StandardCharsets.US_ASCII));
            String answer = RawHttp.readToEnd(socket.getInputStream());
            assertTrue(answer.startsWith("HTTP/1.1 200 OK") && answer.endsWith("{\"status\":\"live\"}"), answer);
        }
    }

    @Test
    void shouldAnswerAConnectionOverTheLimit503AndServeAgainOnceOthersClose() throws IOException {
        List<Socket> held = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                Socket socket = connect(capped);
                held.add(socket);
                assertTrue(exchange(socket, LIVE).startsWith("HTTP/1.1 200 OK"));
            }
            try (Socket extra = connect(capped)) {
                extra.getOutputStream().write(LIVE.getBytes(StandardCharsets.US_ASCII));
                String answer = RawHttp.readToEnd(extra.getInputStream());
                assertTrue(answer.startsWith("HTTP/1.1 503 Service Unavailable") && answer.contains(
                    "\"code\":\"too_many_connections\"") && answer.contains("Connection: close"), answer);
            }
            for (Socket socket : held) {
                assertTrue(exchange(socket, LIVE).startsWith("HTTP/1.1 200 OK"), "a held connection still serves");
            }
        } finally {
            for (Socket socket : held) {
                socket.close();
            }
        }
        Await.until("a new connection served after the held ones closed", () -> {
            try (Socket socket = connect(capped)) {
                return exchange(socket, LIVE).startsWith("HTTP/1.1 200 OK");
            } catch (IOException e) {
                return false;
            }
        });
    }

    @Test
    void shouldCloseAfterAnsweringACompletionThatAskedForClose() throws IOException {
        byte[] body = ("{\"model\":\"" + MODEL + "\",\"max_tokens\":2,\"prompt\":\"close after\"}")
            .getBytes(StandardCharsets.UTF_8);
        // On the frontend whose timeouts nothing reaches: only the answer's end may close the connection.
        try (Socket socket = connect(capped)) {
            socket.getOutputStream().write(("POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                + "application/json\r\nConnection: close\r\nContent-Length: " + body.length + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            socket.getOutputStream().write(body);
            String answer = RawHttp.readToEnd(socket.getInputStream());
            assertTrue(answer.startsWith("HTTP/1.1 200 OK") && answer.contains("\"choices\""), answer);
        }
    }

    @Test
    void shouldServeHttp10HealthAndLiveAndCloseAfterTheAnswer() throws IOException {
        for (String path : List.of("/health", "/live")) {
            try (Socket socket = connect(frontend)) {
                byte[] request = ("GET " + path + " HTTP/1.0\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
                socket.getOutputStream().write(request);
                String answer = RawHttp.readToEnd(socket.getInputStream());
                assertTrue(answer.startsWith("HTTP/1.1 200 OK") && answer.contains("Connection: close")
                    && answer.contains("\"status\":\"" + (path.equals("/live") ? "live" : "healthy") + "\""), answer);
            }
        }
    }

    /**
     * Starts a request head, then sends one header byte every 20 ms (each read gets bytes: only a deadline for the
     * whole head stops it) for 20 s at most; whether the server cut the connection meanwhile.
     */
    private static boolean trickledHeadCut(Socket socket) throws IOException {
        socket.getOutputStream().write("GET /live HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            .getBytes(StandardCharsets.US_ASCII));
        for (int i = 0; i < 1_000; i++) {
            try {
                socket.getOutputStream().write('x');
                socket.getOutputStream().flush();
                LockSupport.parkNanos(20_000_000L);
            } catch (IOException e) {
                return true;
            }
        }
        return false;
    }

    private static Socket connect(Frontend server) throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port());
        socket.setSoTimeout(20_000);
        return socket;
    }

    /** Writes {@code request} and reads one answer with a {@code Content-Length}, leaving the connection open. */
    private static String exchange(Socket socket, String request) throws IOException {
        socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream answer = new ByteArrayOutputStream();
        int expected = -1;
        while (expected < 0 || answer.size() < expected) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            answer.write(b);
            String text = answer.toString(StandardCharsets.ISO_8859_1);
            int end = text.indexOf("\r\n\r\n");
            if (expected < 0 && end >= 0) {
                int at = text.toLowerCase(java.util.Locale.ROOT).indexOf("content-length: ");
                int eol = text.indexOf("\r\n", at);
                expected = end + 4 + Integer.parseInt(text.substring(at + 16, eol).trim());
            }
        }
        return answer.toString(StandardCharsets.UTF_8);
    }
}
