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
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * What only the event-loop server ({@code --http-io loops}) does its own way, through real sockets (the routes,
 * answers, limits and timeouts it shares with Helidon's are the other system tests', run on both): requests sent
 * back to back on one connection are answered in order, one at a time; a large body that finds no turn free waits for
 * one off the loop, and is served once the turn is given back; closing the frontend closes a kept-alive connection.
 */
class LoopServerSystemTest {
    private static final String MODEL = "loop-model";
    private static final String LIVE = "GET /live HTTP/1.1\r\nHost: x\r\n\r\n";

    private static Frontend start(LargeBodyBudget largeBodies) throws Exception {
        return Frontend.start(new FrontendSettings("127.0.0.1", 0, MODEL, 1 << 20, 4, 529, null,
            Duration.ofSeconds(2), new RouterContext(), new EngineSetup.Simulated(new SimEngineContext()
                .numGpuBlocks(4096).blockSize(16).speedupRatio(50), 1), null)
            .largeBodies(largeBodies).io(FrontendSettings.Io.LOOPS));
    }

    private static byte[] completion(String prompt, boolean close) {
        String body = "{\"model\":\"" + MODEL + "\",\"prompt\":\"" + prompt + "\",\"max_tokens\":3}";
        return ("POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + (close ? "Connection: close\r\n" : "") + "Content-Length: " + body.length() + "\r\n\r\n" + body)
            .getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void shouldAnswerRequestsSentBackToBackOnOneConnectionInOrder() throws Exception {
        try (Frontend frontend = start(LargeBodyBudget.defaults());
             Socket socket = connect(frontend)) {
            ByteArrayOutputStream requests = new ByteArrayOutputStream();
            requests.writeBytes(LIVE.getBytes(StandardCharsets.US_ASCII));
            requests.writeBytes(completion("one two three", false));
            requests.writeBytes("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().write(requests.toByteArray());
            String answers = RawHttp.readToEnd(socket.getInputStream());
            int live = answers.indexOf("{\"status\":\"live\"}");
            int choices = answers.indexOf("\"choices\"");
            int health = answers.indexOf("\"status\":\"healthy\"");
            assertTrue(live > 0 && choices > live && health > choices, answers);
            assertEquals(3, answers.split("HTTP/1.1 200 OK", -1).length - 1, answers);
        }
    }

    @Test
    void shouldServeALargeBodyThatWaitedForItsTurnOnceTheTurnIsGivenBack() throws Exception {
        try (Frontend frontend = start(new LargeBodyBudget(16, 1, Duration.ofSeconds(30)))) {
            byte[] first = completion("a large body that holds the only turn", true);
            int headEnd = new String(first, StandardCharsets.US_ASCII).indexOf("\r\n\r\n") + 4;
            try (Socket holder = connect(frontend)) {
                // Its head is in and its body is not: it holds the one turn.
                holder.getOutputStream().write(first, 0, headEnd);
                holder.getOutputStream().flush();
                Await.until("the turn taken", () -> frontend.largeBodies().free() == 0);
                CompletableFuture<RawHttp.Response> waiting = CompletableFuture.supplyAsync(() -> {
                    try {
                        return RawHttp.exchange(frontend.port(), completion("another large body waits", true));
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
                holder.getOutputStream().write(first, headEnd, first.length - headEnd);
                String held = RawHttp.readToEnd(holder.getInputStream());
                assertTrue(held.startsWith("HTTP/1.1 200 OK") && held.contains("\"choices\""), held);
                RawHttp.Response served = waiting.get();
                assertEquals(200, served.status(), served.text());
                assertTrue(served.body().contains("\"choices\""), served.text());
            }
            assertEquals(1, frontend.largeBodies().free(), "every turn given back");
        }
    }

    @Test
    void shouldCloseAKeptAliveConnectionWhenTheFrontendCloses() throws Exception {
        Frontend frontend = start(LargeBodyBudget.defaults());
        try (Socket socket = connect(frontend)) {
            socket.getOutputStream().write(LIVE.getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            String head = readUntil(in, "{\"status\":\"live\"}");
            assertTrue(head.startsWith("HTTP/1.1 200 OK") && !head.contains("Connection: close"), head);
            frontend.close();
            assertEquals("", RawHttp.readToEnd(in), "the connection ends with no more bytes");
        } finally {
            frontend.close();
        }
    }

    private static Socket connect(Frontend frontend) throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), frontend.port());
        socket.setSoTimeout(20_000);
        return socket;
    }

    private static String readUntil(InputStream in, String end) throws IOException {
        ByteArrayOutputStream answer = new ByteArrayOutputStream();
        while (!answer.toString(StandardCharsets.UTF_8).endsWith(end)) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            answer.write(b);
        }
        return answer.toString(StandardCharsets.UTF_8);
    }
}
