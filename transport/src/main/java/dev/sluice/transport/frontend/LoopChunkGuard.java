package dev.sluice.transport.frontend;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import java.util.Locale;

/**
 * The chunk-size lines of a {@link LoopServer} connection's chunked request bodies, checked as Helidon's server
 * checks them ({@link ChunkSizeLine}: the same rules and the same fixed reasons, trailer fields refused), in front of
 * Netty's HTTP decoder, which is laxer and says less. It follows the requests' framing in the bytes as they pass (a
 * head to its blank line, then a body of its {@code Content-Length} or its chunks) and passes every byte on
 * unchanged; at the first malformed line it passes nothing more and tells the connection the reason
 * ({@link Refused}), which answers 400 {@code malformed_chunked_body} and closes. One per connection; event loop only.
 */
final class LoopChunkGuard extends ChannelInboundHandlerAdapter {
    /** A chunked body's framing is lost: the reason, fixed text. */
    record Refused(String reason) {
    }

    private enum State { HEAD, FIXED, SIZE_LINE, DATA, DATA_END, TRAILER }

    private final int maxHeadBytes;
    private State state = State.HEAD;
    /** The head seen so far (HEAD), bounded; past the bound the decoder refuses it and this stops looking. */
    private final StringBuilder head = new StringBuilder();
    private final byte[] line = new byte[ChunkSizeLine.MAX_LENGTH];
    private int lineLength;
    private boolean sawCr;
    private long left;
    private boolean refused;

    LoopChunkGuard(int maxHeadBytes) {
        this.maxHeadBytes = maxHeadBytes;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (refused) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof ByteBuf bytes) {
            String reason = follow(bytes);
            if (reason != null) {
                refused = true;
                bytes.release();
                ctx.fireUserEventTriggered(new Refused(reason));
                return;
            }
        }
        ctx.fireChannelRead(msg);
    }

    /** Follows the framing through {@code bytes} (not consumed); the reason a chunk line is malformed, or null. */
    private String follow(ByteBuf bytes) {
        int end = bytes.writerIndex();
        for (int at = bytes.readerIndex(); at < end; at++) {
            switch (state) {
                case HEAD -> headByte(bytes.getByte(at));
                case FIXED, DATA -> {
                    int skip = (int) Math.min(left, end - at);
                    left -= skip;
                    at += skip - 1;
                    if (left == 0) {
                        state = state == State.DATA ? State.DATA_END : State.HEAD;
                    }
                }
                case DATA_END -> {
                    // The CRLF after a chunk's data: the decoder checks it.
                    if (bytes.getByte(at) == '\n') {
                        state = State.SIZE_LINE;
                        lineLength = 0;
                        sawCr = false;
                    }
                }
                case SIZE_LINE, TRAILER -> {
                    String reason = lineByte(bytes.getByte(at));
                    if (reason != null) {
                        return reason;
                    }
                }
            }
        }
        return null;
    }

    private void headByte(byte b) {
        if (head.length() > maxHeadBytes) {
            // The decoder refuses a head this long; nothing more to follow.
            return;
        }
        head.append((char) (b & 0xff));
        int n = head.length();
        if (n >= 4 && head.charAt(n - 1) == '\n' && head.charAt(n - 2) == '\r' && head.charAt(n - 3) == '\n'
            && head.charAt(n - 4) == '\r') {
            headEnded(head.toString().toLowerCase(Locale.ROOT));
            head.setLength(0);
        } else if (n == 2 && head.charAt(0) == '\r' && head.charAt(1) == '\n') {
            // A blank line before a request line: the decoder skips it.
            head.setLength(0);
        }
    }

    private void headEnded(String text) {
        left = 0;
        state = State.HEAD;
        for (String field : text.split("\r\n")) {
            int colon = field.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String name = field.substring(0, colon).strip();
            String value = field.substring(colon + 1).strip();
            if (name.equals("transfer-encoding") && value.contains("chunked")) {
                state = State.SIZE_LINE;
                lineLength = 0;
                sawCr = false;
                return;
            }
            if (name.equals("content-length")) {
                try {
                    left = Long.parseLong(value);
                } catch (NumberFormatException e) {
                    // The decoder refuses it.
                    left = 0;
                }
            }
        }
        state = left > 0 ? State.FIXED : State.HEAD;
    }

    /** One byte of a chunk-size line or of the trailer section; the reason the line is malformed, or null. */
    private String lineByte(byte b) {
        if (sawCr && b != '\n' || !sawCr && b == '\n') {
            return ChunkSizeLine.BARE_LINE_BREAK;
        }
        if (b == '\r') {
            sawCr = true;
            return null;
        }
        if (b == '\n') {
            sawCr = false;
            return lineEnded();
        }
        if (lineLength == line.length) {
            return ChunkSizeLine.TOO_LONG;
        }
        line[lineLength++] = b;
        return null;
    }

    private String lineEnded() {
        if (state == State.TRAILER) {
            if (lineLength > 0) {
                return ChunkSizeLine.TRAILERS;
            }
            state = State.HEAD;
            return null;
        }
        int size;
        try {
            size = ChunkSizeLine.parse(line, lineLength);
        } catch (RuntimeException e) {
            return e.getMessage() != null && ChunkSizeLine.REASONS.contains(e.getMessage()) ? e.getMessage()
                : ChunkSizeLine.NOT_HEX;
        }
        lineLength = 0;
        if (size == 0) {
            state = State.TRAILER;
        } else {
            left = size;
            state = State.DATA;
        }
        return null;
    }
}
