package dev.sluice.transport.engine.http;

import static dev.sluice.transport.engine.http.EngineLoops.engine;
import static dev.sluice.transport.engine.http.EngineLoops.request;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An {@code https} engine is spoken to in TLS: its connection opens with a TLS handshake record, and a peer that
 * does not complete the handshake leaves the request unanswered with the same message as an unreachable engine.
 */
class EngineTlsTest {
    /** The content type of a TLS handshake record, the first byte a TLS client sends. */
    private static final int HANDSHAKE_RECORD = 0x16;

    @Test
    void shouldOpenAnHttpsEnginesConnectionWithATlsHandshake() throws Exception {
        CompletableFuture<Integer> firstByte = new CompletableFuture<>();
        try (ScriptedUpstream upstream = new ScriptedUpstream((index, peer) -> {
            firstByte.complete(peer.read());
            // Not a TLS server: the handshake ends here.
            peer.close();
        }); HttpEngine engine = engine(upstream.url().replace("http:", "https:"), Duration.ofSeconds(10),
            Duration.ofSeconds(10))) {
            ExchangeRecorder recorder = new ExchangeRecorder();
            engine.submit(request("a"), recorder);
            assertEquals(HANDSHAKE_RECORD, firstByte.get(10, TimeUnit.SECONDS), "a TLS handshake record first");
            assertEquals(List.of("error UNAVAILABLE the engine could not be reached"), recorder.ended());
        }
    }
}
