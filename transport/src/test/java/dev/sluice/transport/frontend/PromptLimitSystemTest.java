package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.router.RouterContext;
import dev.sluice.transport.engine.sim.SimEngineContext;
import dev.sluice.transport.testing.RawHttp;
import dev.sluice.transport.tokenize.BoundedPromptEncoder;
import dev.sluice.transport.tokenize.WordPromptEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A prompt over {@code --max-prompt-tokens} is the client's 400 naming the limit, before admission (the router
 * never sees it); a prompt at the limit is served.
 */
class PromptLimitSystemTest {
    private static final int LIMIT = 1000;
    private static Frontend frontend;

    @BeforeAll
    static void start() throws Exception {
        frontend = Frontend.start(new FrontendSettings("127.0.0.1", 0, "m", 1 << 22, 4, 529, null,
            Duration.ofSeconds(1), new RouterContext(), new EngineSetup.Simulated(new SimEngineContext()
                .numGpuBlocks(1024).blockSize(16).speedupRatio(50), 1), null, TrustedSources.ANY,
            BoundedPromptEncoder.of(WordPromptEncoder.INSTANCE, LIMIT)));
    }

    @AfterAll
    static void stop() {
        frontend.close();
    }

    @Test
    void shouldAnswer400NamingTheLimitForAPromptOverItBeforeAdmission() throws Exception {
        long arrivedBefore = frontend.router().stats().arrived();
        RawHttp.Response huge = post("{\"model\":\"m\",\"prompt\":\"" + "a ".repeat(1_000_000) + "\"}");
        assertEquals(400, huge.status(), huge.text());
        assertTrue(huge.body().contains("the prompt has more than 1000 tokens, the most this server takes "
            + "(--max-prompt-tokens)") && huge.body().contains("\"param\":\"prompt\""), huge.body());
        RawHttp.Response chat = RawHttp.exchange(frontend.port(), RawHttp.post("/v1/chat/completions", Map.of(),
            ("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"" + "b ".repeat(LIMIT) + "\"}]}")
                .getBytes(StandardCharsets.UTF_8)));
        assertEquals(400, chat.status(), chat.text());
        assertTrue(chat.body().contains("\"param\":\"messages\""), chat.body());
        assertEquals(arrivedBefore, frontend.router().stats().arrived(), "refused before the router");

        RawHttp.Response atLimit = post("{\"model\":\"m\",\"prompt\":\"" + "a ".repeat(LIMIT) + "\"}");
        assertEquals(200, atLimit.status(), atLimit.text());
    }

    private static RawHttp.Response post(String body) throws Exception {
        return RawHttp.exchange(frontend.port(), RawHttp.post("/v1/completions", Map.of(),
            body.getBytes(StandardCharsets.UTF_8)));
    }
}
