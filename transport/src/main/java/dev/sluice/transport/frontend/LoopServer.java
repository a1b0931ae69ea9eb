package dev.sluice.transport.frontend;

import dev.sluice.core.router.ModelRouter;
import dev.sluice.transport.io.EventLoops;
import dev.sluice.transport.openai.CompletionRequest;
import dev.sluice.transport.openai.OpenAiException;
import io.helidon.http.HeaderNames;
import io.helidon.http.WritableHeaders;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerExpectContinueHandler;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.SocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The frontend's server on the shared {@link EventLoops} (Netty's HTTP/1.1 codec, {@code TCP_NODELAY}): each client
 * connection is a {@link LoopConnection} on one loop, and each completion request a {@link LoopCompletion} on the same
 * loop, so that a request whose engine runs on the shared loops is read, admitted, sent, streamed back and answered
 * by one thread, with no thread waiting for another. Its routes and answers are those of the Helidon server
 * ({@link Frontend}'s pages, {@link CompletionsEndpoint}'s parsing and errors). Past the connection limit and its
 * {@link ConnectionLimits#OVER_CAP_SLOTS}, it stops accepting (connections wait in the kernel's backlog) until one
 * closes. Thread-safe.
 */
final class LoopServer implements FrontendServer {
    /** Helidon's defaults, kept: the longest request line (and chunk-size line) and the most header bytes. */
    private static final int MAX_LINE = 4096;
    private static final int MAX_HEADERS = 16_384;

    /** A page of a route other than the completions: its status, content type and body. */
    record Page(int status, String contentType, byte[] body) {
    }

    /** The pages of the routes other than the completions, by path ({@code null}: no such page). */
    interface Pages {
        Page get(String path);
    }

    private final ConnectionLimits limits;
    private final long maxBodyBytes;
    private final LargeBodyGate largeBodies;
    private final Map<String, CompletionsEndpoint> completions;
    private final Pages pages;
    private final AtomicInteger open = new AtomicInteger();
    private final ChannelGroup connections = new DefaultChannelGroup("sluice-connections",
        GlobalEventExecutor.INSTANCE);
    private Channel listener;

    private LoopServer(FrontendSettings settings, LargeBodyGate largeBodies, List<ModelServing> models, Pages pages) {
        this.limits = settings.connections();
        this.maxBodyBytes = settings.maxBodyBytes();
        this.largeBodies = largeBodies;
        this.completions = Map.of(
            "/v1/chat/completions", new CompletionsEndpoint(CompletionRequest.Endpoint.CHAT, settings, models,
                largeBodies),
            "/v1/completions", new CompletionsEndpoint(CompletionRequest.Endpoint.COMPLETIONS, settings, models,
                largeBodies));
        this.pages = pages;
    }

    /**
     * Listens on the settings' host and port; when this returns the port listens.
     *
     * @throws Frontend.ListenFailure the address is not this machine's, or the port is taken.
     */
    static LoopServer start(FrontendSettings settings, LargeBodyGate largeBodies, List<ModelServing> models,
                            Pages pages) {
        LoopServer server = new LoopServer(settings, largeBodies, models, pages);
        try {
            server.listener = new ServerBootstrap()
                .group(EventLoops.shared())
                .channel(NioServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel client) {
                        LoopConnection connection = new LoopConnection(server);
                        client.pipeline().addLast(connection.new FirstBytes(),
                            new LoopChunkGuard(MAX_LINE + MAX_HEADERS),
                            new HttpServerCodec(MAX_LINE, MAX_HEADERS, 8192),
                            new HttpServerExpectContinueHandler(), connection);
                    }
                })
                .bind(settings.host(), settings.port())
                .sync()
                .channel();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Frontend.ListenFailure(settings.host(), settings.port());
        } catch (Exception e) {
            // Netty's sync() rethrows the bind's BindException as it is, undeclared.
            throw new Frontend.ListenFailure(settings.host(), settings.port());
        }
        return server;
    }

    @Override
    public int port() {
        return ((java.net.InetSocketAddress) listener.localAddress()).getPort();
    }

    /** Stops listening and closes every connection still open. */
    @Override
    public void close() {
        listener.close().syncUninterruptibly();
        connections.close().awaitUninterruptibly();
    }

    ConnectionLimits limits() {
        return limits;
    }

    long maxBodyBytes() {
        return maxBodyBytes;
    }

    LargeBodyGate largeBodies() {
        return largeBodies;
    }

    /**
     * A connection opened: whether it is served (false: it is over the limit, answered 503). Past the limit and the
     * over-cap slots, the server stops accepting until a connection closes.
     */
    boolean opened(Channel connection) {
        connections.add(connection);
        int now = open.incrementAndGet();
        if (now >= limits.maxConnections() + ConnectionLimits.OVER_CAP_SLOTS) {
            listener.config().setAutoRead(false);
        }
        return now <= limits.maxConnections();
    }

    /** A connection closed. */
    void closed() {
        int now = open.decrementAndGet();
        if (now < limits.maxConnections() + ConnectionLimits.OVER_CAP_SLOTS && !listener.config().isAutoRead()) {
            listener.config().setAutoRead(true);
        }
    }

    /** Client connections open now. */
    int open() {
        return open.get();
    }

    /** The endpoint of a completion request, or {@code null} when the request is not one. */
    CompletionsEndpoint completions(HttpRequest request) {
        return request.method().equals(HttpMethod.POST) ? completions.get(path(request)) : null;
    }

    private static String path(HttpRequest request) {
        String uri = request.uri();
        int query = uri.indexOf('?');
        return query < 0 ? uri : uri.substring(0, query);
    }

    /** Answers a request other than a completion: its page, or 404. */
    void page(HttpRequest request, LoopAnswer answer) {
        Page page = request.method().equals(HttpMethod.GET) || request.method().equals(HttpMethod.HEAD)
            ? pages.get(path(request)) : null;
        if (page == null) {
            answer.error(new OpenAiException(404, "Not Found", null, "not_found"));
            return;
        }
        answer.whole(LoopAnswer.status(page.status()), page.body(), page.contentType());
    }

    /**
     * Starts a completion whose body has been read: its ids and headers set, parsed, submitted to its model's router;
     * {@code turn} (its large-body turn) is given back once it is parsed. The connection hears of the completion
     * before it is submitted.
     */
    void complete(CompletionsEndpoint endpoint, HttpRequest request, byte[] body, ChannelHandlerContext ctx,
                  LoopAnswer answer, LargeBodyGate.Turn turn, LoopConnection connection) {
        String requestId = CompletionsEndpoint.newRequestId();
        answer.header(CompletionsEndpoint.SLUICE_REQUEST_ID.defaultCase(), requestId);
        CompletionsEndpoint.Prepared prepared;
        WritableHeaders<?> headers = WritableHeaders.create();
        try {
            for (Map.Entry<String, String> header : request.headers()) {
                headers.add(HeaderNames.create(header.getKey()), header.getValue());
            }
            String clientId = DynamoHeaders.clientRequestId(headers);
            answer.header(DynamoHeaders.REQUEST_ID.defaultCase(), clientId != null ? clientId : requestId);
            SocketAddress peer = ctx.channel().remoteAddress();
            prepared = endpoint.prepare(requestId, clientId, headers, body, peer);
        } catch (OpenAiException e) {
            answer.error(e);
            return;
        } finally {
            if (turn != null) {
                turn.close();
            }
        }
        ModelServing model = prepared.model();
        ModelRouter router = model.router();
        LoopCompletion completion = new LoopCompletion(endpoint, model, prepared.request(), prepared.prompt(),
            requestId, answer, ctx.channel().eventLoop());
        connection.running(completion);
        completion.submitted(router.submit(prepared.admission(), completion));
    }
}
