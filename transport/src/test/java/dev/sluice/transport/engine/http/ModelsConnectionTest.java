package dev.sluice.transport.engine.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.sluice.transport.engine.EngineRuntimeConfig;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /v1/models} (the model check and the health probe) closes its connection: it reads with the connect
 * timeout rather than the completions' one, and each probe shows that the engine still accepts connections.
 */
class ModelsConnectionTest {
    @Test
    void shouldCloseTheConnectionOfEveryModelsRequest() throws Exception {
        List<String> connectionHeaders = new CopyOnWriteArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/models", exchange -> {
            try (exchange) {
                connectionHeaders.add(String.valueOf(exchange.getRequestHeaders().getFirst("Connection")));
                byte[] list = "{\"object\":\"list\",\"data\":[{\"id\":\"m\"}]}".getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, list.length);
                exchange.getResponseBody().write(list);
            }
        });
        server.start();
        try (HttpEngine engine = new HttpEngine(0, HttpEngineSettings.of("http://127.0.0.1:"
            + server.getAddress().getPort(), "m", Duration.ofSeconds(2), Duration.ofSeconds(10),
            new EngineRuntimeConfig(16, 16, 16, 1, 1)))) {
            assertEquals(List.of("m"), engine.models().ids());
            assertTrue(engine.probe().reachable(), "the probe reached the engine");
        } finally {
            server.stop(0);
        }
        assertEquals(List.of("close", "close"), connectionHeaders.stream().map(String::toLowerCase).toList());
    }
}
