package dev.sluice.perf.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.FullHttpRequest;

/**
 * One client connection of {@link LoopServe}: each request it sends becomes a {@link LoopExchange} on the connection's
 * loop; one runs at a time (a client that pipelines gets 400 for the request sent while one runs). When the client
 * goes, the request still running is aborted at the router and its engine connection closed. Event loop only.
 */
final class LoopConnection extends SimpleChannelInboundHandler<FullHttpRequest> {
    private final LoopExchange.Shared shared;
    private LoopExchange running;

    LoopConnection(LoopExchange.Shared shared) {
        this.shared = shared;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        if (running != null && !running.ended()) {
            LoopAnswer.refuse(ctx, 400, "one request at a time on a connection (no pipelining)");
            return;
        }
        running = new LoopExchange(shared, ctx);
        running.start(request);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (running != null) {
            running.clientGone();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
