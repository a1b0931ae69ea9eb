package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.router.RouterContext;
import dev.sluice.transport.engine.sim.SimEngineContext;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A stream still running when a shutdown's grace period ends gets an error event naming the shutdown, then its end,
 * instead of a connection cut mid-answer; the router counts it aborted.
 */
class GracePeriodSystemTest {
    @Test
    void shouldEndAStreamThatOutlivesTheGracePeriodWithAShuttingDownErrorEvent() throws Exception {
        Frontend frontend = Frontend.start(new FrontendSettings("127.0.0.1", 0, "m", 1 << 20, 16, 529, null,
            Duration.ofMillis(200), new RouterContext(), new EngineSetup.Simulated(new SimEngineContext()
                .numGpuBlocks(4096).blockSize(16), 1), null));
        HttpResponse<InputStream> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
            "http://127.0.0.1:" + frontend.port() + "/v1/completions")).header("content-type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"prompt\":\"keep going\",\"max_tokens\":"
                + "20000,\"stream\":true}")).build(), HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, response.statusCode());
        List<String> events = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(response.body(),
            StandardCharsets.UTF_8))) {
            // 20 000 tokens take minutes: the stream is running when the shutdown begins.
            readEvent(reader, events);
            Thread closing = Thread.ofVirtual().start(frontend::close);
            String event;
            while ((event = readEvent(reader, events)) != null && !event.contains("\"error\"")) {
                // tokens until the grace period ends
            }
            assertTrue(event != null, "an error event before the end: " + events.subList(Math.max(0,
                events.size() - 3), events.size()));
            assertTrue(event.contains("\"code\":\"shutting_down\"") && event.contains("grace period"), event);
            closing.join();
        }
        assertEquals(1, frontend.router().stats().aborted());
    }

    /** The next {@code data:} line, or {@code null} at the end of the stream. */
    private static String readEvent(BufferedReader reader, List<String> events) throws Exception {
        String line;
        while ((line = reader.readLine()) != null) {
            if (line.startsWith("data: ")) {
                events.add(line);
                return line;
            }
        }
        return null;
    }
}
