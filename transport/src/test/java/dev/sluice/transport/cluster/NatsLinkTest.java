package dev.sluice.transport.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.transport.testing.Await;
import dev.sluice.transport.testing.NatsServer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The replica's NATS connection: it starts without a server, finds it once it is up, and finds it again. */
class NatsLinkTest {
    @Test
    void shouldStartWithoutNatsConnectOnceItIsUpAndReconnectAfterARestart() throws Exception {
        try (NatsServer server = NatsServer.start()) {
            server.stop();
            try (NatsLink link = NatsLink.connect(server.url(), ReplicaIdentity.of("t"))) {
                assertFalse(link.connected(), "no server yet: " + link.state());
                server.restart();
                Await.until("connected once the server is up", link::connected);
                server.kill();
                Await.until("the loss seen", () -> !link.connected());
                server.restart();
                Await.until("reconnected after the restart", () -> link.connected() && link.reconnects() >= 1);
            }
        }
    }

    @Test
    void shouldWaitLongerAfterEachFailedAttemptUpToTwoSeconds() {
        assertEquals(List.of(100L, 100L, 200L, 400L, 800L, 1600L, 2000L, 2000L),
            List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 60L).stream().map(NatsLink::backoffMs).toList());
    }

    @Test
    void shouldRefuseAMalformedUrlAndReplicaIdByName() {
        IllegalArgumentException id = assertThrows(IllegalArgumentException.class, () -> ReplicaIdentity.of("a b"));
        assertTrue(id.getMessage().contains("--replica-id must be 1 to 64 letters"), id.getMessage());
        assertTrue(ReplicaIdentity.of(null).id().startsWith("replica-"));
        assertFalse(ReplicaIdentity.of("x").key().equals(ReplicaIdentity.of("x").key()), "a new incarnation");
    }
}
