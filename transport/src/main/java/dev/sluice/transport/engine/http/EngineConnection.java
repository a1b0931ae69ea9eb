package dev.sluice.transport.engine.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.PrematureChannelClosureException;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;

/**
 * One keep-alive HTTP/1.1 connection to an engine, the last handler of its channel's pipeline: it hands the answer
 * of the request it carries to that request's {@link RemoteExchange} (the head, the body's bytes copied into one
 * buffer kept for the connection's life, the end, or why the answer was lost) and, once an answer was read to its
 * end and the engine keeps the connection alive, gives the connection back to its loop's pool. Interim {@code 1xx}
 * answers are skipped. Confined to the channel's event loop; not thread-safe.
 */
final class EngineConnection extends ChannelInboundHandlerAdapter {
    private final EngineChannels channels;
    private Channel channel;
    private RemoteExchange exchange;
    /** Whether any byte came from the engine since the current request was sent. */
    private boolean received;
    private boolean keepAlive;
    private boolean interim;
    /** Why the connection failed, reported when it has closed. */
    private Throwable failure;
    private byte[] scratch = new byte[1024];

    EngineConnection(EngineChannels channels) {
        this.channels = channels;
    }

    /** The handler in front of the HTTP decoder that notes any byte the engine sends. */
    ChannelHandler byteWatch() {
        return new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object message) {
                received = true;
                ctx.fireChannelRead(message);
            }
        };
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        channel = ctx.channel();
    }

    Channel channel() {
        return channel;
    }

    /** Carries {@code to}'s request, sent as {@code request}: the answer that comes next is {@code to}'s. */
    void send(RemoteExchange to, Object request) {
        exchange = to;
        received = false;
        keepAlive = false;
        interim = false;
        // A failed write reaches exceptionCaught, and the close after it channelInactive.
        channel.writeAndFlush(request, channel.voidPromise());
    }

    /** Whether any byte of the current request's answer came. */
    boolean received() {
        return received;
    }

    /** Takes the connection from its exchange and closes it: its answer is not wanted any more. */
    void abandon() {
        exchange = null;
        channel.close();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        try {
            RemoteExchange to = exchange;
            if (to == null || !(message instanceof HttpObject http)) {
                return;
            }
            if (http.decoderResult().isFailure()) {
                failure = decodingFailure(http.decoderResult().cause());
                ctx.close();
                return;
            }
            if (message instanceof HttpResponse head) {
                interim = head.status().codeClass() == HttpStatusClass.INFORMATIONAL && head.status().code() != 101;
                if (interim) {
                    return;
                }
                keepAlive = HttpUtil.isKeepAlive(head);
                to.onHead(head.status().code());
            }
            if (message instanceof HttpContent content && !interim) {
                ByteBuf bytes = content.content();
                int length = bytes.readableBytes();
                if (length > 0) {
                    if (length > scratch.length) {
                        scratch = new byte[Math.max(length, scratch.length * 2)];
                    }
                    bytes.getBytes(bytes.readerIndex(), scratch, 0, length);
                    to.onBody(scratch, 0, length);
                }
                if (content instanceof LastHttpContent && exchange == to) {
                    exchange = null;
                    if (keepAlive) {
                        channels.release(channel);
                    } else {
                        channel.close();
                    }
                    to.onEnd();
                }
            } else if (message instanceof LastHttpContent) {
                interim = false;
            }
        } finally {
            ReferenceCountUtil.release(message);
        }
    }

    /**
     * The decoder's complaint as the exchange reports it: a close before the head or body ended is a lost connection;
     * anything else is an answer that is not HTTP/1.1, said without quoting the engine's bytes.
     */
    private static Throwable decodingFailure(Throwable cause) {
        if (cause instanceof PrematureChannelClosureException) {
            return null;
        }
        if (cause instanceof TooLongFrameException) {
            return new UpstreamProtocolException("the engine's answer head is over " + EngineChannels.MAX_HEAD_BYTES
                / 1024 + " KiB");
        }
        return new UpstreamProtocolException("the engine's answer is not valid HTTP/1.1");
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (failure == null) {
            failure = cause;
        }
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        RemoteExchange to = exchange;
        exchange = null;
        if (to == null) {
            channels.forget(channel);
        } else {
            to.onLost(failure);
        }
        ctx.fireChannelInactive();
    }
}
