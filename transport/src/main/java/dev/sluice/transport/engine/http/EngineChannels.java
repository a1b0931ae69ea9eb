package dev.sluice.transport.engine.http;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.NetUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLException;

/**
 * The connections to one engine, on the process's shared event loops: keep-alive connections pooled per loop (last
 * in, first out: the most recently used one, the least likely to have been closed by the engine meanwhile, goes
 * first), so an exchange borrows one of its own loop's and the engine's answer is read on the loop that started it.
 * New connections connect within the connect timeout, send without Nagle's delay (the engine's delayed ACK would
 * otherwise hold an answer's small segments) and, for {@code https} URLs, speak TLS with host name verification.
 *
 * <p>Threads: a loop's pool is touched only on that loop ({@link #borrow}, {@link #release}); the map of pools is
 * thread-safe; {@link #close} may come from any thread and closes each loop's idle connections on that loop.
 */
final class EngineChannels implements AutoCloseable {
    /** Idle keep-alive connections kept per loop; one given back beyond them is closed. */
    static final int MAX_IDLE_PER_LOOP = 128;
    /** The longest answer head (status line and headers) taken, and the largest piece of body handed over. */
    static final int MAX_HEAD_BYTES = 16 * 1024;
    private static final int MAX_PIECE_BYTES = 8 * 1024;

    private final String host;
    private final int port;
    /** The engine's address: resolved for an IP address, else a name each new connection looks up off its loop. */
    private final InetSocketAddress remote;
    private final int connectMillis;
    private final SslContext tls;
    private final Map<EventLoop, ArrayDeque<Channel>> idle = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /**
     * The connections to {@code uri}'s host and port, connecting within {@code connectMillis}. Opens none yet.
     *
     * @throws IllegalStateException if TLS cannot be set up on this JVM.
     */
    EngineChannels(URI uri, int connectMillis) {
        boolean secure = uri.getScheme().equalsIgnoreCase("https");
        String uriHost = uri.getHost();
        this.host = uriHost.startsWith("[") ? uriHost.substring(1, uriHost.length() - 1) : uriHost;
        this.port = uri.getPort() >= 0 ? uri.getPort() : secure ? 443 : 80;
        InetAddress literal = NetUtil.createInetAddressFromIpAddressString(host);
        this.remote = literal != null ? new InetSocketAddress(literal, port)
            : InetSocketAddress.createUnresolved(host, port);
        this.connectMillis = connectMillis;
        try {
            this.tls = secure ? SslContextBuilder.forClient().sslProvider(SslProvider.JDK)
                .endpointIdentificationAlgorithm("HTTPS").build() : null;
        } catch (SSLException e) {
            throw new IllegalStateException("TLS to " + host + " cannot be set up: " + e.getMessage(), e);
        }
    }

    /** Lends {@code exchange} an idle connection of {@code loop}, else opens a new one for it. On {@code loop}. */
    void borrow(EventLoop loop, RemoteExchange exchange) {
        ArrayDeque<Channel> pool = idle.get(loop);
        Channel channel;
        while (pool != null && (channel = pool.pollLast()) != null) {
            if (channel.isActive()) {
                exchange.lent(channel.pipeline().get(EngineConnection.class), true);
                return;
            }
            channel.close();
        }
        connect(loop, exchange);
    }

    /** Opens a new connection on {@code loop} for {@code exchange}, which hears when it is open or failed. */
    void connect(EventLoop loop, RemoteExchange exchange) {
        ChannelFuture connecting = new Bootstrap()
            .group(loop)
            .channel(NioSocketChannel.class)
            .option(ChannelOption.TCP_NODELAY, true)
            .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectMillis)
            .resolver(OffLoopLookups.SYSTEM)
            .handler(new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel channel) {
                    if (tls != null) {
                        SslHandler ssl = tls.newHandler(channel.alloc(), host, port);
                        // The handshake is part of connecting.
                        ssl.setHandshakeTimeoutMillis(connectMillis);
                        channel.pipeline().addLast(ssl);
                    }
                    EngineConnection connection = new EngineConnection(EngineChannels.this);
                    channel.pipeline().addLast(connection.byteWatch(),
                        new HttpClientCodec(MAX_HEAD_BYTES, MAX_HEAD_BYTES, MAX_PIECE_BYTES), connection);
                }
            })
            .connect(remote);
        connecting.addListener((ChannelFutureListener) done -> {
            if (done.isSuccess()) {
                exchange.lent(done.channel().pipeline().get(EngineConnection.class), false);
            } else {
                exchange.connectFailed(done.cause());
            }
        });
    }

    /**
     * Keeps {@code channel}, whose last answer was read to its end and which the engine keeps alive, for its loop's
     * next exchange; closes it when the loop's pool is full or the engine closed. On the channel's loop.
     */
    void release(Channel channel) {
        if (closed || !channel.isActive()) {
            channel.close();
            return;
        }
        ArrayDeque<Channel> pool = idle.computeIfAbsent(channel.eventLoop(), any -> new ArrayDeque<>());
        if (pool.size() >= MAX_IDLE_PER_LOOP) {
            channel.close();
            return;
        }
        pool.addLast(channel);
    }

    /** Forgets an idle {@code channel} the engine closed. On the channel's loop. */
    void forget(Channel channel) {
        ArrayDeque<Channel> pool = idle.get(channel.eventLoop());
        if (pool != null) {
            pool.remove(channel);
        }
    }

    /** Idle connections of {@code loop} now. On {@code loop}. */
    int idle(EventLoop loop) {
        ArrayDeque<Channel> pool = idle.get(loop);
        return pool == null ? 0 : pool.size();
    }

    /** The idle connection of {@code loop} its next exchange gets, or {@code null}. On {@code loop}. */
    Channel nextIdle(EventLoop loop) {
        ArrayDeque<Channel> pool = idle.get(loop);
        return pool == null ? null : pool.peekLast();
    }

    /** Closes every idle connection (each on its loop); connections given back later are closed. Idempotent. */
    @Override
    public void close() {
        closed = true;
        idle.forEach((loop, pool) -> loop.execute(() -> {
            Channel channel;
            while ((channel = pool.pollLast()) != null) {
                channel.close();
            }
        }));
    }
}
