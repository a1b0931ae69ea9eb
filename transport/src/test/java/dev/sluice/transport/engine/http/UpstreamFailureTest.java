package dev.sluice.transport.engine.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.transport.engine.ErrorKind;
import io.netty.channel.ConnectTimeoutException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** What a client is told when an engine could not be reached, whichever client (the loops', the probe's) failed. */
class UpstreamFailureTest {
    @Test
    void shouldSayAConnectTimeoutOfEitherClientInTheSameWords() {
        UpstreamFailure expected = new UpstreamFailure(ErrorKind.UNAVAILABLE,
            "the engine did not accept a connection within 2 s");
        assertEquals(expected, UpstreamFailure.beforeResponse(new ConnectTimeoutException(
            "connection timed out after 2000 ms: /10.0.0.1:8000"), Duration.ofSeconds(2)), "the event loops'");
        assertEquals(expected, UpstreamFailure.beforeResponse(new SocketTimeoutException("Connect timed out"),
            Duration.ofSeconds(2)), "a blocking socket's");
    }

    @Test
    void shouldTellARefusedConnectionFromAnyOtherFailure() {
        assertEquals(new UpstreamFailure(ErrorKind.UNAVAILABLE, "the engine refused the connection"),
            UpstreamFailure.beforeResponse(new ConnectException("Connection refused: /127.0.0.1:1"),
                Duration.ofSeconds(2)));
        assertEquals(new UpstreamFailure(ErrorKind.UNAVAILABLE, "the engine could not be reached"),
            UpstreamFailure.beforeResponse(new IOException("Connection reset by peer"),
                Duration.ofSeconds(2)));
    }
}
