package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The guard follows requests' framing byte by byte, whatever the pieces the bytes come in: it passes every byte of
 * well-framed requests on unchanged (chunked ones with extensions, fixed-length bodies that merely look like chunk
 * lines, requests back to back), and stops at the first malformed chunk line with its reason.
 */
class LoopChunkGuardTest {
    private static final String CHUNKED_HEAD = "POST /v1/completions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked"
        + "\r\n\r\n";

    /** What passed the guard, and the reason it stopped, if it did. */
    private static final class Seen extends ChannelInboundHandlerAdapter {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        String refused;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            byte[] copy = new byte[buf.readableBytes()];
            buf.readBytes(copy);
            buf.release();
            bytes.writeBytes(copy);
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
            refused = ((LoopChunkGuard.Refused) event).reason();
        }
    }

    /** Sends {@code input} through a guard in pieces of {@code piece} bytes. */
    private static Seen send(String input, int piece) {
        Seen seen = new Seen();
        EmbeddedChannel channel = new EmbeddedChannel(new LoopChunkGuard(20_480), seen);
        byte[] bytes = input.getBytes(StandardCharsets.ISO_8859_1);
        for (int at = 0; at < bytes.length; at += piece) {
            channel.writeInbound(Unpooled.wrappedBuffer(bytes, at, Math.min(piece, bytes.length - at)));
        }
        channel.finishAndReleaseAll();
        return seen;
    }

    @Test
    void shouldPassWellFramedRequestsBackToBackUnchangedInAnyPieces() {
        String fixed = "{\"x\":\"zz\\r\\n\"}\r\nzz\r\n";
        String input = CHUNKED_HEAD + "5;a=b\r\nhello\r\n1\r\n!\r\n0\r\n\r\n"
            + "POST /v1/completions HTTP/1.1\r\nContent-Length: " + fixed.length() + "\r\n\r\n" + fixed
            + "GET /live HTTP/1.1\r\n\r\n" + CHUNKED_HEAD + "0\r\n\r\n";
        for (int piece : new int[] {1, 3, 7, input.length()}) {
            Seen seen = send(input, piece);
            assertNull(seen.refused, "pieces of " + piece);
            assertEquals(input, seen.bytes.toString(StandardCharsets.ISO_8859_1), "pieces of " + piece);
        }
    }

    @Test
    void shouldStopAtTheFirstMalformedLineWithItsReason() {
        assertEquals(ChunkSizeLine.NOT_HEX, send(CHUNKED_HEAD + "zz\r\n", 4).refused);
        assertEquals(ChunkSizeLine.TOO_LARGE, send(CHUNKED_HEAD + "FFFFFFFFFF\r\n", 4).refused);
        assertEquals(ChunkSizeLine.BARE_LINE_BREAK, send(CHUNKED_HEAD + "5\nhello", 4).refused);
        assertEquals(ChunkSizeLine.BAD_EXTENSION, send(CHUNKED_HEAD + "5;=\r\n", 4).refused);
        assertEquals(ChunkSizeLine.TOO_LONG, send(CHUNKED_HEAD + "5;a=" + "b".repeat(5000) + "\r\n", 512).refused);
        assertEquals(ChunkSizeLine.TRAILERS, send(CHUNKED_HEAD + "2\r\nhi\r\n0\r\nx-trailer: 1\r\n\r\n", 5).refused);
        Seen seen = send(CHUNKED_HEAD + "2\r\nhi\r\nzz\r\n", 100);
        assertEquals(ChunkSizeLine.NOT_HEX, seen.refused);
        assertEquals("", seen.bytes.toString(StandardCharsets.ISO_8859_1), "nothing of the piece with the bad line");
    }
}
