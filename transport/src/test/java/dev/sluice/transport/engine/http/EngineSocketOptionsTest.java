package dev.sluice.transport.engine.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.transport.engine.EngineRuntimeConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The engine's client sockets send without Nagle's delay (else a request's segments or the engine's small answers
 * could wait for a delayed ACK, up to 40 ms on Linux), and completions read with the socket read timeout the
 * settings give.
 */
class EngineSocketOptionsTest {
    @Test
    void shouldDisableNagleAndKeepTheReadTimeout() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream((index, peer) -> {
            peer.readRequest();
            peer.write(ScriptedUpstream.chunkedEvents("[DONE]"));
        })) {
            HttpEngineSettings settings = HttpEngineSettings.of(upstream.url(), "m", Duration.ofSeconds(3),
                Duration.ofSeconds(20), new EngineRuntimeConfig(16, 16, 16, 1, 1));
            try (HttpEngine engine = new HttpEngine(0, settings);
                 UpstreamConnection connection = engine.client().post("r", body -> body.write('{'))) {
                assertTrue(connection.socket().getTcpNoDelay(), "TCP_NODELAY is set on the engine's sockets");
                assertEquals(HttpEngine.socketReadTimeout(settings).toMillis(), connection.socket().getSoTimeout());
            }
        }
    }
}
