package dev.sluice.transport.engine.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.transport.engine.EngineRuntimeConfig;
import io.helidon.common.socket.SocketOptions;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The engine's client sockets send without Nagle's delay, and setting that keeps the connect and read timeouts the
 * settings give (Helidon connects and reads with its socket options).
 */
class EngineSocketOptionsTest {
    @Test
    void shouldDisableNagleAndKeepTheTimeouts() {
        HttpEngineSettings settings = HttpEngineSettings.of("http://127.0.0.1:8001", "m", Duration.ofSeconds(3),
            Duration.ofSeconds(20), new EngineRuntimeConfig(16, 16, 16, 1, 1));
        try (HttpEngine engine = new HttpEngine(0, settings)) {
            SocketOptions options = engine.client().prototype().socketOptions();
            assertTrue(options.tcpNoDelay(), "TCP_NODELAY is set on the engine's sockets");
            assertEquals(Duration.ofSeconds(3), options.connectTimeout());
            assertEquals(HttpEngine.socketReadTimeout(settings), options.readTimeout());
        }
    }
}
