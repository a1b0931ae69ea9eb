package dev.sluice.perf.http;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link LoopServe}'s keep-alive connections to its engine, pooled per event loop: a request borrows one of its own
 * loop's (opening one when none is idle), so the engine's answer is read on the loop that answers the client. A
 * connection is lent to one exchange at a time, which it tells of the engine's answer as it comes; it goes back to
 * its loop's pool when the answer has ended and the engine keeps it open. Each loop's pool is touched only on that
 * loop; the map of pools is thread-safe.
 */
final class EnginePools {
    /** What an engine connection tells the exchange it is lent to. */
    interface Answer {
        void onHead(HttpResponse head);

        /** A piece of the body; the receiver does not keep {@code content} past the call. */
        void onContent(HttpContent content);

        /** The body ended; the connection is back in its pool (or closed) before this is called. */
        void onEnd();

        /** The engine's bytes read so far have all been handed over: the moment to flush what they produced. */
        void onBurstEnd();

        /** The connection failed or closed before the answer ended. */
        void onLost(Throwable cause);
    }

    /** Receives a borrowed connection, or why none could be opened. */
    interface Lender {
        void lent(Channel engine);

        void failed(Throwable cause);
    }

    private final URI engine;
    private final Map<EventLoop, ArrayDeque<Channel>> idle = new ConcurrentHashMap<>();

    EnginePools(URI engine) {
        this.engine = engine;
    }

    /** Lends {@code answer} a connection of {@code loop} (on that loop): at once when one is idle. */
    void borrow(EventLoop loop, Answer answer, Lender lender) {
        ArrayDeque<Channel> pool = idle.computeIfAbsent(loop, any -> new ArrayDeque<>());
        Channel channel;
        while ((channel = pool.pollFirst()) != null) {
            if (channel.isActive()) {
                channel.pipeline().get(EngineConnection.class).answer = answer;
                lender.lent(channel);
                return;
            }
        }
        EngineConnection connection = new EngineConnection(pool);
        connection.answer = answer;
        new Bootstrap()
            .group(loop)
            .channel(NioSocketChannel.class)
            .option(ChannelOption.TCP_NODELAY, true)
            .handler(new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel socket) {
                    socket.pipeline().addLast(new HttpClientCodec(), connection);
                }
            })
            .connect(engine.getHost(), engine.getPort())
            .addListener((ChannelFutureListener) connected -> {
                if (connected.isSuccess()) {
                    lender.lent(connected.channel());
                } else {
                    lender.failed(connected.cause());
                }
            });
    }

    /** One engine connection: hands the answer to the exchange it is lent to, then goes back to its pool. */
    private static final class EngineConnection extends ChannelInboundHandlerAdapter {
        private final ArrayDeque<Channel> pool;
        private Answer answer;
        private boolean keepAlive;

        EngineConnection(ArrayDeque<Channel> pool) {
            this.pool = pool;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object message) {
            try {
                Answer to = answer;
                if (to == null) {
                    return;
                }
                if (message instanceof HttpResponse head) {
                    keepAlive = io.netty.handler.codec.http.HttpUtil.isKeepAlive(head);
                    to.onHead(head);
                }
                if (message instanceof HttpContent content) {
                    to.onContent(content);
                    if (content instanceof LastHttpContent && answer == to) {
                        answer = null;
                        if (keepAlive) {
                            pool.addLast(ctx.channel());
                        } else {
                            ctx.close();
                        }
                        to.onEnd();
                        // The burst's end still flushes what this answer wrote.
                        to.onBurstEnd();
                    }
                }
            } finally {
                ReferenceCountUtil.release(message);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            Answer to = answer;
            if (to != null) {
                to.onBurstEnd();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            pool.remove(ctx.channel());
            lose(new java.io.IOException("the engine closed the connection"));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
            lose(cause);
        }

        private void lose(Throwable cause) {
            Answer to = answer;
            answer = null;
            if (to != null) {
                to.onLost(cause);
            }
        }
    }

    /** Takes {@code engine} from the exchange it was lent to and closes it: its answer is not wanted any more. */
    static void abandon(Channel engine) {
        EngineConnection connection = engine.pipeline().get(EngineConnection.class);
        if (connection != null) {
            connection.answer = null;
        }
        engine.close();
    }
}
