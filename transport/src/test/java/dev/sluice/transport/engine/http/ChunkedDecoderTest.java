package dev.sluice.transport.engine.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Chunked bodies as engines send them, in pieces of every size, and the malformed ones they must not. */
class ChunkedDecoderTest {
    private final ChunkedDecoder decoder = new ChunkedDecoder();
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();
    private final BodySink all = (bytes, offset, length) -> {
        body.write(bytes, offset, length);
        return true;
    };

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Decodes {@code text} whole; returns the index after the last byte consumed. */
    private int decode(String text) throws UpstreamProtocolException {
        decoder.reset();
        byte[] in = bytes(text);
        return decoder.decode(in, 0, in.length, all);
    }

    @Test
    void shouldDecodeTheSameBodyWhateverWayTheBytesAreSplit() throws Exception {
        String wire = "7;name=value;other\r\ndata: a\r\n1A\r\n" + "x".repeat(26) + "\r\n3 ; ext\nabc\n"
            + "0;last\r\nTrailer-One: 1\r\nTrailer-Two: 2\r\n\r\n";
        byte[] in = bytes(wire);
        String expected = "data: a" + "x".repeat(26) + "abc";
        for (int size = 1; size <= in.length; size++) {
            decoder.reset();
            body.reset();
            int consumed = 0;
            for (int at = 0; at < in.length; at += size) {
                int to = Math.min(in.length, at + size);
                consumed = decoder.decode(in, at, to, all);
                assertEquals(to, consumed, "a piece is consumed whole, pieces of " + size);
            }
            assertTrue(decoder.done(), "the body ended, pieces of " + size);
            assertEquals(expected, body.toString(StandardCharsets.ISO_8859_1), "pieces of " + size);
        }
    }

    @Test
    void shouldStopAtTheEndOfTheBodyAndLeaveWhatFollows() throws Exception {
        String wire = "2\r\nhi\r\n0\r\n\r\n";
        assertEquals(wire.length(), decode(wire + "HTTP/1.1 200 OK"));
        assertTrue(decoder.done());
        assertEquals("hi", body.toString(StandardCharsets.ISO_8859_1));
    }

    @Test
    void shouldNotEndBeforeTheLineAfterTheLastChunk() throws Exception {
        decode("2\r\nhi\r\n0\r\nTrailer: x\r\n");
        assertFalse(decoder.done(), "the empty line that ends the trailers has not come");
        byte[] rest = bytes("\r\n");
        decoder.decode(rest, 0, rest.length, all);
        assertTrue(decoder.done());
    }

    @Test
    void shouldStopWhenTheSinkSaysSoAndGoOnFromThere() throws Exception {
        byte[] in = bytes("3\r\nabc\r\n3\r\ndef\r\n0\r\n\r\n");
        decoder.reset();
        int at = decoder.decode(in, 0, in.length, (bytes, offset, length) -> {
            body.write(bytes, offset, length);
            return false;
        });
        assertTrue(decoder.stopped());
        assertEquals("abc", body.toString(StandardCharsets.ISO_8859_1));
        assertEquals(6, at, "stopped right after the data it gave");
        assertEquals(in.length, decoder.decode(in, at, in.length, all));
        assertFalse(decoder.stopped());
        assertTrue(decoder.done());
        assertEquals("abcdef", body.toString(StandardCharsets.ISO_8859_1));
    }

    @Test
    void shouldTakeHexInEitherCaseAndLargeChunksAcrossPieces() throws Exception {
        decoder.reset();
        byte[] head = bytes("1F4\r\n");
        decoder.decode(head, 0, head.length, all);
        byte[] data = bytes("y".repeat(500));
        for (int at = 0; at < data.length; at += 100) {
            decoder.decode(data, at, at + 100, all);
        }
        byte[] end = bytes("\r\n0\r\n\r\n");
        decoder.decode(end, 0, end.length, all);
        assertTrue(decoder.done());
        assertEquals(500, body.size());
        decode("a\r\n0123456789\r\n0\r\n\r\n");
        assertTrue(decoder.done(), "lower-case hex");
    }

    @Test
    void shouldRefuseASizeThatIsNotHex() {
        UpstreamProtocolException e = assertThrows(UpstreamProtocolException.class, () -> decode("2x\r\nhi\r\n"));
        assertEquals("the engine's chunked answer has a chunk size that is not hex", e.getMessage());
        e = assertThrows(UpstreamProtocolException.class, () -> decode("zz\r\n"));
        assertEquals("the engine's chunked answer has a chunk size line without a hex size", e.getMessage());
        e = assertThrows(UpstreamProtocolException.class, () -> decode("\r\n"));
        assertEquals("the engine's chunked answer has a chunk size line without a hex size", e.getMessage());
        e = assertThrows(UpstreamProtocolException.class, () -> decode("-1\r\n"));
        assertEquals("the engine's chunked answer has a chunk size line without a hex size", e.getMessage());
    }

    @Test
    void shouldRefuseASizeThatOverflows() {
        UpstreamProtocolException e = assertThrows(UpstreamProtocolException.class,
            () -> decode("1000000000000000\r\n"));
        assertEquals("the engine's chunked answer has a chunk size over 15 hex digits", e.getMessage());
    }

    @Test
    void shouldRefuseAChunkLongerThanItsSize() {
        UpstreamProtocolException e = assertThrows(UpstreamProtocolException.class, () -> decode("2\r\nhello\r\n"));
        assertEquals("the engine's chunked answer has a chunk longer than its size", e.getMessage());
        e = assertThrows(UpstreamProtocolException.class, () -> decode("2\r\nhi\rX"));
        assertEquals("the engine's chunked answer has a chunk longer than its size", e.getMessage());
    }

    @Test
    void shouldRefuseACarriageReturnWithoutLineFeed() {
        UpstreamProtocolException e = assertThrows(UpstreamProtocolException.class, () -> decode("2\rhi"));
        assertEquals("the engine's chunked answer has a CR without LF in a size line", e.getMessage());
        e = assertThrows(UpstreamProtocolException.class, () -> decode("0\r\n\rX"));
        assertEquals("the engine's chunked answer does not end with CRLF", e.getMessage());
    }

    @Test
    void shouldRefuseOverlongExtensionsAndTrailers() {
        UpstreamProtocolException e = assertThrows(UpstreamProtocolException.class,
            () -> decode("2;" + "e".repeat(ChunkedDecoder.MAX_SIZE_LINE_BYTES) + "\r\n"));
        assertEquals("the engine's chunked answer has a chunk size line over 4096 bytes", e.getMessage());
        e = assertThrows(UpstreamProtocolException.class,
            () -> decode("0\r\nT: " + "t".repeat(ChunkedDecoder.MAX_TRAILER_BYTES) + "\r\n\r\n"));
        assertEquals("the engine's chunked answer has trailers over 16 KiB", e.getMessage());
    }
}
