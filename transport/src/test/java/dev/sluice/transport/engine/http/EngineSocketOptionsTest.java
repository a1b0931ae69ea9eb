package dev.sluice.transport.engine.http;

import static dev.sluice.transport.engine.http.EngineLoops.engine;
import static dev.sluice.transport.engine.http.EngineLoops.loops;
import static dev.sluice.transport.engine.http.EngineLoops.on;
import static dev.sluice.transport.engine.http.EngineLoops.request;
import static dev.sluice.transport.engine.http.EngineLoops.stream;
import static dev.sluice.transport.engine.http.EngineLoops.submitOn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The engine's connections send without Nagle's delay (else a request's segments or the engine's small answers
 * could wait for a delayed ACK, up to 40 ms on Linux) and connect within the settings' connect timeout.
 */
class EngineSocketOptionsTest {
    @Test
    void shouldDisableNagleAndConnectWithinTheConnectTimeout() throws Exception {
        EventLoop loop = loops().get(0);
        try (ScriptedUpstream upstream = new ScriptedUpstream((index, peer) -> {
            while (peer.readRequest()) {
                peer.write(stream("one"));
            }
        }); HttpEngine engine = engine(upstream)) {
            ExchangeRecorder recorder = new ExchangeRecorder();
            submitOn(loop, engine, request("r"), recorder);
            recorder.ended();
            Channel channel = on(loop, () -> engine.channels().nextIdle(loop));
            assertTrue(channel.config().getOption(ChannelOption.TCP_NODELAY), "TCP_NODELAY on the engine's sockets");
            assertEquals((int) Duration.ofSeconds(5).toMillis(),
                channel.config().getOption(ChannelOption.CONNECT_TIMEOUT_MILLIS));
        }
    }
}
