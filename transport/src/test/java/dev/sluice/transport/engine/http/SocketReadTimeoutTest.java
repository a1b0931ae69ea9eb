package dev.sluice.transport.engine.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.transport.engine.EngineRuntimeConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The socket read timeout never fires before the first-token and idle timers, and is none without an idle limit. */
class SocketReadTimeoutTest {
    private static HttpEngineSettings settings(Duration firstToken, Duration idle) {
        return HttpEngineSettings.of("http://127.0.0.1:8001", "m", Duration.ofSeconds(5), firstToken,
            new EngineRuntimeConfig(16, 16, 16, 1, 1)).withStreamIdleTimeout(idle);
    }

    @Test
    void shouldOutlastTheLongerOfTheTwoTimeouts() {
        assertEquals(Duration.ofSeconds(61), HttpEngine.socketReadTimeout(settings(Duration.ofSeconds(60),
            Duration.ofSeconds(60))));
        assertEquals(Duration.ofSeconds(121), HttpEngine.socketReadTimeout(settings(Duration.ofSeconds(120),
            Duration.ofSeconds(30))));
        assertEquals(Duration.ofSeconds(91), HttpEngine.socketReadTimeout(settings(Duration.ofSeconds(10),
            Duration.ofSeconds(90))));
    }

    @Test
    void shouldBeTheLongestASocketTakesWithoutAnIdleLimitOrForHugeTimeouts() {
        Duration most = Duration.ofMillis(Integer.MAX_VALUE);
        assertEquals(most, HttpEngine.socketReadTimeout(settings(Duration.ofSeconds(60), Duration.ZERO)));
        assertEquals(most, HttpEngine.socketReadTimeout(settings(Duration.ofDays(365), Duration.ofSeconds(1))));
    }
}
