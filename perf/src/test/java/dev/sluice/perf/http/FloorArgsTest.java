package dev.sluice.perf.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URI;
import org.junit.jupiter.api.Test;

/** The floor servers' command line: a port and an engine URL, or an error naming the argument that is wrong. */
class FloorArgsTest {
    @Test
    void shouldReadAPortAndAnEngineUrl() {
        FloorArgs proxy = FloorArgs.parse(new String[] {"8080", "http://127.0.0.1:9000"}, true);
        assertEquals(8080, proxy.port());
        assertEquals(URI.create("http://127.0.0.1:9000"), proxy.engine());
        FloorArgs server = FloorArgs.parse(new String[] {"0"}, false);
        assertEquals(0, server.port());
        assertNull(server.engine());
    }

    @Test
    void shouldNameTheWrongArgument() {
        assertEquals("expected 2 arguments, got 1", message(new String[] {"8080"}, true));
        assertEquals("PORT: expected a number, got 'eighty'", message(new String[] {"eighty"}, false));
        assertEquals("PORT: expected 0 to 65535, got 70000", message(new String[] {"70000"}, false));
        assertEquals("ENGINE_URL: expected http://host:port, got '127.0.0.1:9000'",
            message(new String[] {"8080", "127.0.0.1:9000"}, true));
        assertEquals("ENGINE_URL: expected http://host:port, got 'http://127.0.0.1'",
            message(new String[] {"8080", "http://127.0.0.1"}, true));
    }

    private static String message(String[] args, boolean withEngine) {
        return assertThrows(IllegalArgumentException.class, () -> FloorArgs.parse(args, withEngine)).getMessage();
    }
}
