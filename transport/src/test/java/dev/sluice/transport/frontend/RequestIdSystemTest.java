package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.router.RouterContext;
import dev.sluice.transport.engine.sim.SimEngineContext;
import dev.sluice.transport.testing.RawHttp;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A client's {@code x-request-id}: echoed when usable, a 400 naming the header when not (never a 500). */
class RequestIdSystemTest {
    private static final byte[] BODY = "{\"model\":\"m\",\"prompt\":\"hi\",\"max_tokens\":2}"
        .getBytes(StandardCharsets.UTF_8);
    private static Frontend frontend;

    @BeforeAll
    static void start() throws Exception {
        frontend = Frontend.start(new FrontendSettings("127.0.0.1", 0, "m", 4096, 16, 529, null,
            Duration.ofSeconds(1), new RouterContext(), new EngineSetup.Simulated(new SimEngineContext()
                .numGpuBlocks(1024).blockSize(16).speedupRatio(50), 1), null));
    }

    @AfterAll
    static void stop() {
        frontend.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "two words", "tab\there"})
    void shouldAnswer400ForAnUnusableRequestId(String id) throws Exception {
        RawHttp.Response response = RawHttp.exchange(frontend.port(), RawHttp.post("/v1/completions",
            Map.of("x-request-id", id), BODY));

        assertEquals(400, response.status(), response.text());
        assertTrue(response.text().contains("\"message\":\"header x-request-id must"), response.text());
        assertTrue(response.text().contains("\"code\":\"invalid_header\""), response.text());
    }

    @Test
    void shouldRefuseAnOverlongRequestIdAndEchoAGoodOne() throws Exception {
        RawHttp.Response long257 = RawHttp.exchange(frontend.port(), RawHttp.post("/v1/completions",
            Map.of("x-request-id", "a".repeat(257)), BODY));
        assertEquals(400, long257.status(), long257.text());
        assertTrue(long257.text().contains("at most 256 characters, was 257"), long257.text());

        RawHttp.Response good = RawHttp.exchange(frontend.port(), RawHttp.post("/v1/completions",
            Map.of("x-request-id", "req-7f3a"), BODY));
        assertEquals(200, good.status(), good.text());
        assertTrue(good.text().toLowerCase(java.util.Locale.ROOT).contains("x-request-id: req-7f3a"), good.text());
    }
}
