package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.transport.testing.RawHttp;
import dev.sluice.transport.testing.SluiceProcess;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Chunked request bodies sent over a raw socket to {@code sluice serve} (a process, its log captured): a chunk
 * extension is accepted; a malformed chunk-size line gets its 400 at once, though the client sends nothing after it
 * and keeps the connection open; and what the client sent never reaches the log raw: no line of its own, no 64 KB
 * of junk.
 */
class ChunkedBodySystemTest {
    private static final Pattern READY = Pattern.compile("sluice serving \\S+ on (http://\\S+)");
    private static final String BODY = "{\"model\":\"m\",\"prompt\":\"hi\",\"max_tokens\":2}";
    private static final String JUNK = "j".repeat(64 * 1024);
    /** What the log may grow by over all the malformed requests and the shutdown. */
    private static final int LOG_BUDGET = 8 * 1024;

    @Test
    void shouldAcceptExtensionsAndAnswerMalformedSizesAt400WithoutLoggingTheClientsBytes() throws Exception {
        try (SluiceProcess serve = SluiceProcess.start(READY, List.of("serve", "--http-port", "0", "--no-journal",
            "--sim-workers", "1", "--speedup-ratio", "50", "--model-name", "m"))) {
            int port = URI.create(serve.ready()).getPort();
            RawHttp.Response extended = RawHttp.exchange(port, chunked(Integer.toHexString(BODY.length())
                + ";foo=bar\r\n" + BODY + "\r\n0;last=1\r\n\r\n"));
            assertEquals(200, extended.status(), extended.text());
            assertTrue(extended.body().contains("\"object\":\"text_completion\""), extended.text());
            int logBefore = serve.output().length();

            malformed(port, "zz", ChunkSizeLine.NOT_HEX);
            malformed(port, "-5", ChunkSizeLine.NOT_HEX);
            malformed(port, "FFFFFFFFFFFFFFFFFFFF", ChunkSizeLine.TOO_LARGE);
            malformed(port, JUNK, ChunkSizeLine.TOO_LONG);
            malformed(port, "zz\nSEVERE: forged by the client\n", ChunkSizeLine.BARE_LINE_BREAK);
            malformed(port, "5;a=\"x\nSEVERE: forged in an extension\"", ChunkSizeLine.BARE_LINE_BREAK);

            serve.stop();
            String log = serve.outputAtExit().substring(logBefore);
            assertFalse(Pattern.compile("(?m)^SEVERE: forged").matcher(log).find(), log);
            assertFalse(log.contains("j".repeat(2048)), "the junk line was logged");
            assertTrue(log.length() < LOG_BUDGET, () -> log.length() + " characters logged:\n" + log);
        }
    }

    /** Sends {@code sizeLine} and its CRLF as the first chunk, then nothing, and expects the 400 naming it. */
    private static void malformed(int port, String sizeLine, String reason) throws Exception {
        RawHttp.Response response = RawHttp.exchange(port, chunked(sizeLine + "\r\n"));
        assertEquals(400, response.status(), response.text());
        assertTrue(response.body().contains("\"message\":\"" + reason + "\""), response.text());
        assertTrue(response.body().contains("\"code\":\"malformed_chunked_body\""), response.text());
    }

    private static byte[] chunked(String body) {
        return ("POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "Transfer-Encoding: chunked\r\n\r\n" + body).getBytes(StandardCharsets.ISO_8859_1);
    }
}
