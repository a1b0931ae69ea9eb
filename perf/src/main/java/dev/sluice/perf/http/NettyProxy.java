package dev.sluice.perf.http;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpServerCodec;
import java.net.URI;

/**
 * The floor of an event-loop proxy on the JVM, for {@code perf/proxy-cpu.sh}, beside {@link BareProxy}'s Helidon
 * floor: Netty's HTTP/1.1 codecs on NIO event loops (one per core), each client connection paired with its own
 * upstream connection to the engine on the same event loop, as HAProxy's {@code http-reuse} pairs them. Requests and
 * answers go through as Netty decodes them (head, then body pieces), re-encoded by the other side's codec; writes are
 * flushed when a read burst ends, so a stream's events that arrive together leave in one write. No admission, no
 * journal, no JSON parse, no virtual threads: what is left is the HTTP work itself.
 *
 * <p>Usage: {@code NettyProxy PORT ENGINE_URL}; runs until killed.
 */
public final class NettyProxy {
    private NettyProxy() {
    }

    public static void main(String[] args) throws InterruptedException {
        FloorArgs parsed = FloorArgs.parseOrExit("NettyProxy", args, true);
        int port = parsed.port();
        URI engine = parsed.engine();
        start(new MultiThreadIoEventLoopGroup(Runtime.getRuntime().availableProcessors(), NioIoHandler.newFactory()),
            port, engine);
        System.out.println("netty proxy on port " + port + " to " + engine);
    }

    /**
     * Listens on {@code 127.0.0.1:port} (0: any free port) on {@code loops} and relays to {@code engine}
     * ({@code http://host:port}); returns the listening channel. Closing it stops accepting; shutting the loops down
     * closes every connection.
     */
    static Channel start(EventLoopGroup loops, int port, URI engine) throws InterruptedException {
        return new ServerBootstrap()
            .group(loops)
            .channel(NioServerSocketChannel.class)
            .childOption(ChannelOption.TCP_NODELAY, true)
            // Nothing is read from a client before its upstream connection is open.
            .childOption(ChannelOption.AUTO_READ, false)
            .childHandler(new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel client) {
                    client.pipeline().addLast(new HttpServerCodec(), new Frontend(engine));
                }
            })
            .bind("127.0.0.1", port)
            .sync()
            .channel();
    }

    /** One client connection: opens its upstream connection, then relays what the client sends. */
    private static final class Frontend extends ChannelInboundHandlerAdapter {
        private final URI engine;
        private Channel upstream;

        Frontend(URI engine) {
            this.engine = engine;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            Channel client = ctx.channel();
            new Bootstrap()
                .group(client.eventLoop())
                .channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        channel.pipeline().addLast(new HttpClientCodec(), new Backend(client));
                    }
                })
                .connect(engine.getHost(), engine.getPort())
                .addListener((ChannelFutureListener) connected -> {
                    if (connected.isSuccess()) {
                        upstream = connected.channel();
                        client.config().setAutoRead(true);
                    } else {
                        client.close();
                    }
                });
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object message) {
            // Reads start once the upstream connection is open (auto-read is off until then).
            upstream.write(message, upstream.voidPromise());
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            if (upstream != null) {
                upstream.flush();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (upstream != null) {
                upstream.close();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    /** One upstream connection: relays the engine's answers to its client. */
    private static final class Backend extends ChannelInboundHandlerAdapter {
        private final Channel client;

        Backend(Channel client) {
            this.client = client;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object message) {
            client.write(message, client.voidPromise());
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            client.flush();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            client.close();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
