package dev.sluice.transport.engine.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Answer heads as engines send them: the status, the body's framing, whether the connection stays. */
class ResponseHeadTest {
    private final ResponseHead head = new ResponseHead();

    private ResponseHead parse(String text) throws UpstreamProtocolException {
        byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
        int end = ResponseHead.end(bytes, 0, bytes.length);
        assertEquals(bytes.length, end, "the head ends at its empty line");
        head.parse(bytes, 0, end);
        return head;
    }

    @Test
    void shouldFindTheEndOfAHeadOnlyOnceItsEmptyLineIsThere() {
        byte[] bytes = "HTTP/1.1 200 OK\r\nA: b\r\n\r\nbody".getBytes(StandardCharsets.ISO_8859_1);
        assertEquals(25, ResponseHead.end(bytes, 0, bytes.length));
        assertEquals(-1, ResponseHead.end(bytes, 0, 24), "CRLF CR: not yet");
        byte[] bare = "HTTP/1.1 200 OK\nA: b\n\nbody".getBytes(StandardCharsets.ISO_8859_1);
        assertEquals(22, ResponseHead.end(bare, 0, bare.length));
    }

    @Test
    void shouldReadAChunkedStreamKeptAlive() throws Exception {
        parse("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nTransfer-Encoding:  Chunked \r\n\r\n");
        assertEquals(200, head.status());
        assertEquals(ResponseHead.Framing.CHUNKED, head.framing());
    }

    @Test
    void shouldReadALengthAndLetTransferEncodingOverrideIt() throws Exception {
        parse("HTTP/1.1 404 Not Found\r\nContent-Length: 42\r\n\r\n");
        assertEquals(404, head.status());
        assertEquals(ResponseHead.Framing.LENGTH, head.framing());
        assertEquals(42, head.contentLength());
        parse("HTTP/1.1 200 OK\r\nContent-Length: 42\r\nTransfer-Encoding: gzip, chunked\r\n\r\n");
        assertEquals(ResponseHead.Framing.CHUNKED, head.framing());
        parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n");
        assertEquals(ResponseHead.Framing.CLOSE, head.framing(), "a coding that is not chunked runs to the close");
    }

    @Test
    void shouldLetABodyWithoutLengthRunToTheClose() throws Exception {
        parse("HTTP/1.1 200 OK\r\n\r\n");
        assertEquals(ResponseHead.Framing.CLOSE, head.framing());
    }

    @Test
    void shouldGiveNoBodyToStatusesThatHaveNone() throws Exception {
        parse("HTTP/1.1 204 No Content\r\nTransfer-Encoding: chunked\r\n\r\n");
        assertEquals(ResponseHead.Framing.LENGTH, head.framing());
        assertEquals(0, head.contentLength());
    }

    @Test
    void shouldTakeBareLineFeedsAndAStatusWithoutReason() throws Exception {
        parse("HTTP/1.1 503\nContent-Length: 3\n\n");
        assertEquals(503, head.status());
        assertEquals(3, head.contentLength());
    }

    @Test
    void shouldRefuseWhatIsNotAnHttpHead() {
        UpstreamProtocolException e = assertThrows(UpstreamProtocolException.class,
            () -> parse("SSH-2.0-OpenSSH\r\n\r\n"));
        assertEquals("the engine's answer does not start with an HTTP/1.x status line", e.getMessage());
        assertThrows(UpstreamProtocolException.class, () -> parse("HTTP/1.1 20x OK\r\n\r\n"));
        assertThrows(UpstreamProtocolException.class, () -> parse("HTTP/1.1 2000 OK\r\n\r\n"));
        e = assertThrows(UpstreamProtocolException.class, () -> parse("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n"));
        assertEquals("the engine's answer has a malformed header line", e.getMessage());
        e = assertThrows(UpstreamProtocolException.class, () -> parse("HTTP/1.1 200 OK\r\n: x\r\n\r\n"));
        assertEquals("the engine's answer has a malformed header line", e.getMessage());
    }

    @Test
    void shouldRefuseABadOrAmbiguousLength() {
        UpstreamProtocolException e = assertThrows(UpstreamProtocolException.class,
            () -> parse("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n"));
        assertEquals("the engine's answer has an invalid Content-Length", e.getMessage());
        assertThrows(UpstreamProtocolException.class, () -> parse("HTTP/1.1 200 OK\r\nContent-Length:\r\n\r\n"));
        e = assertThrows(UpstreamProtocolException.class,
            () -> parse("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n"));
        assertEquals("the engine's answer has two different Content-Length headers", e.getMessage());
    }
}
