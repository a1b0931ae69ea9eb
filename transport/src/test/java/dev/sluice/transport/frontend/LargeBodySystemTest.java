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
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The large-body budget through real sockets: with one turn, a large body still arriving holds it; another large
 * body is answered 529 {@code too_many_large_bodies} at once while small requests are served; once the first body
 * has arrived and been answered, a large body is served again.
 */
class LargeBodySystemTest {
    private static final String MODEL = "large-model";
    private static Frontend frontend;

    @BeforeAll
    static void start() throws Exception {
        frontend = Frontend.start(new FrontendSettings("127.0.0.1", 0, MODEL, 1 << 20, 4, 529, null,
            Duration.ofSeconds(2), new RouterContext(), new EngineSetup.Simulated(new SimEngineContext()
                .numGpuBlocks(4096).blockSize(16).speedupRatio(50), 1), null)
            .largeBodies(new LargeBodyBudget(1024, 1, Duration.ZERO)));
    }

    @AfterAll
    static void stop() {
        frontend.close();
    }

    @Test
    void shouldHandleOneLargeBodyAtATimeAndServeSmallOnesMeanwhile() throws IOException {
        byte[] large = completion(4096);
        try (Socket first = new Socket(InetAddress.getLoopbackAddress(), frontend.port())) {
            first.setSoTimeout(20_000);
            OutputStream out = first.getOutputStream();
            out.write(("POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + large.length + "\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
            out.write(large, 0, 100);
            out.flush();
            Await.until("the first large body holds the only turn", () -> frontend.largeBodies().free() == 0);

            RawHttp.Response refused = post(large);
            assertEquals(529, refused.status(), refused.text());
            assertTrue(refused.body().contains("\"code\":\"too_many_large_bodies\""), refused.text());
            assertEquals("1", refused.header("retry-after"), refused.text());
            RawHttp.Response small = post(completion(10));
            assertEquals(200, small.status(), "a small body takes no turn: " + small.text());

            out.write(large, 100, large.length - 100);
            out.flush();
            String answer = readToEnd(first.getInputStream());
            assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
        }
        Await.until("the turn given back", () -> frontend.largeBodies().free() == 1);
        RawHttp.Response again = post(large);
        assertEquals(200, again.status(), again.text());
    }

    /** A completion whose body is about {@code words} * 2 bytes. */
    private static byte[] completion(int words) {
        return ("{\"model\":\"" + MODEL + "\",\"max_tokens\":2,\"prompt\":\"" + "a ".repeat(words) + "\"}")
            .getBytes(StandardCharsets.UTF_8);
    }

    private static RawHttp.Response post(byte[] body) throws IOException {
        return RawHttp.exchange(frontend.port(), RawHttp.post("/v1/completions", Map.of(), body));
    }

    private static String readToEnd(InputStream in) throws IOException {
        ByteArrayOutputStream answer = new ByteArrayOutputStream();
        in.transferTo(answer);
        return answer.toString(StandardCharsets.UTF_8);
    }
}
