package dev.sluice.transport.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NatsServerTest {
    @Test
    void shouldGreetClientsAgainOnTheSamePortAfterAKillAndARestart() throws Exception {
        try (NatsServer server = NatsServer.start()) {
            assertTrue(server.accepting(), "a client gets INFO once start returns");
            String url = server.url();
            server.kill();
            assertFalse(server.isRunning());
            assertFalse(server.accepting(), "nothing listens after kill -9");
            server.restart();
            assertEquals(url, server.url());
            assertTrue(server.accepting(), "the restarted server greets on the same port");
            server.stop();
            assertFalse(server.accepting());
        }
    }
}
