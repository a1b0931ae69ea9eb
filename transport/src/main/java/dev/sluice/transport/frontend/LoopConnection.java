package dev.sluice.transport.frontend;

import dev.sluice.transport.openai.OpenAiException;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.ArrayDeque;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * One client connection of the {@link LoopServer}, on its event loop: the {@link ConnectionLimits} (a connection over
 * the limit answered 503 once its head is in; header, body and idle timeouts, past which the connection is closed
 * without an answer), the body read up to the frontend's limit (a body over it read to its end and dropped, then 413;
 * far over it, 413 and closed), the large-body turn taken before a large body is read, then the request routed: a
 * completion to a {@link LoopCompletion}, the other routes to the server's pages. One request at a time: one that
 * comes while an answer is being written waits, unread, for the answer's end. Event loop only.
 */
final class LoopConnection extends ChannelInboundHandlerAdapter {
    private static final long NONE = Long.MAX_VALUE;

    private enum Phase { AWAITING, HEAD, BODY, ANSWERING }

    private final LoopServer server;
    private final ConnectionLimits limits;
    private ChannelHandlerContext ctx;
    private boolean overCap;
    private Phase phase = Phase.AWAITING;
    private long deadlineNanos;
    private ScheduledFuture<?> watch;
    /** When the scheduled check comes. */
    private long watchNanos;
    /** The request whose body is being read, and what it has sent of it. */
    private HttpRequest head;
    /** The head's completion endpoint, or {@code null} when it asks for a page. */
    private CompletionsEndpoint endpoint;
    private ByteBuf body;
    private long bodyBytes;
    private boolean tooLarge;
    private LargeBodyGate.Turn turn;
    /** A large-body turn is being waited for, off the loop; the connection is not read meanwhile. */
    private boolean turnPending;
    /** What came while an answer was being written: read once it is out. */
    private final ArrayDeque<Object> held = new ArrayDeque<>();
    private LoopCompletion completion;
    private boolean closed;

    LoopConnection(LoopServer server) {
        this.server = server;
        this.limits = server.limits();
    }

    /** What reads the socket's bytes before the HTTP decoder: a request's first byte starts its head's clock. */
    final class FirstBytes extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext bytes, Object msg) {
            if (phase == Phase.AWAITING && msg instanceof ByteBuf buf && buf.isReadable()) {
                phase = Phase.HEAD;
                deadline(Math.min(deadlineNanos, System.nanoTime() + limits.headerTimeout().toNanos()));
            }
            bytes.fireChannelRead(msg);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext context) {
        ctx = context;
        overCap = !server.opened(context.channel());
        // The first request's head must arrive within the header timeout of the accept.
        deadline(System.nanoTime() + limits.headerTimeout().toNanos());
        context.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) {
        closed = true;
        if (watch != null) {
            watch.cancel(false);
        }
        if (completion != null) {
            completion.clientGone();
            completion = null;
        }
        releaseBody();
        close(turn);
        turn = null;
        while (!held.isEmpty()) {
            ReferenceCountUtil.release(held.poll());
        }
        server.closed();
        context.fireChannelInactive();
    }

    /** A chunked body's framing is lost ({@link LoopChunkGuard}): its 400, and the connection closes. */
    @Override
    public void userEventTriggered(ChannelHandlerContext context, Object event) {
        if (event instanceof LoopChunkGuard.Refused) {
            // In its turn, after what came before it.
            channelRead(context, event);
            return;
        }
        context.fireUserEventTriggered(event);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
        // A reset or a broken pipe: the client is gone, which channelInactive handles.
        context.close();
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object msg) {
        if (phase == Phase.ANSWERING || !held.isEmpty() || turnPending) {
            held.add(msg);
            context.channel().config().setAutoRead(false);
            return;
        }
        read(msg);
    }

    private void read(Object msg) {
        try {
            if (msg instanceof LoopChunkGuard.Refused refused) {
                refuse(new OpenAiException(400, refused.reason(), null, "malformed_chunked_body"));
                return;
            }
            if (msg instanceof HttpRequest request) {
                requestHead(request);
            }
            if (msg instanceof HttpContent content && head != null) {
                content(content);
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private void requestHead(HttpRequest request) {
        DecoderResult result = request.decoderResult();
        if (result.isFailure()) {
            refuse(TransportErrors.decoderFailure(result.cause()));
            return;
        }
        if (overCap) {
            phase = Phase.ANSWERING;
            LoopAnswer answer = new LoopAnswer(ctx, false, this);
            answer.header("Retry-After", "1");
            answer.error(new OpenAiException(503, "The server holds as many connections as it serves; retry later",
                null, "too_many_connections"));
            return;
        }
        head = request;
        phase = Phase.BODY;
        deadline(System.nanoTime() + limits.bodyTimeout().toNanos());
        bodyBytes = 0;
        tooLarge = false;
        long declared = HttpUtil.getContentLength(request, -1L);
        if (declared > RequestBody.ceiling(server.maxBodyBytes())) {
            // Far over the limit: not read.
            refuse(TransportErrors.payloadTooLarge());
            return;
        }
        endpoint = server.completions(request);
        if (endpoint != null) {
            OptionalLong length = declared < 0 ? OptionalLong.empty() : OptionalLong.of(declared);
            LargeBodyGate.Turn free;
            try {
                free = server.largeBodies().tryEnter(length);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                ctx.close();
                return;
            }
            if (free == null) {
                awaitTurn(length);
            } else {
                turn = free;
            }
        }
    }

    /** No large-body turn is free: one is waited for off the loop, the connection unread meanwhile. */
    private void awaitTurn(OptionalLong length) {
        turnPending = true;
        ctx.channel().config().setAutoRead(false);
        Thread.ofVirtual().name("sluice-large-body-turn").start(() -> {
            LargeBodyGate.Turn given = null;
            OpenAiException refused = null;
            try {
                given = server.largeBodies().enter(length);
            } catch (OpenAiException e) {
                refused = e;
            } catch (InterruptedException e) {
                refused = new OpenAiException(503, "The server is shutting down", null, "shutting_down");
            }
            LargeBodyGate.Turn taken = given;
            OpenAiException error = refused;
            ctx.channel().eventLoop().execute(() -> turnGiven(taken, error));
        });
    }

    private void turnGiven(LargeBodyGate.Turn given, OpenAiException refused) {
        turnPending = false;
        if (closed) {
            if (given != null) {
                given.close();
            }
            return;
        }
        if (refused != null) {
            LoopAnswer answer = answer();
            answer.header("Retry-After", "1");
            answer.error(refused);
            ctx.close();
            return;
        }
        turn = given;
        readHeld();
    }

    private void content(HttpContent content) {
        if (content.decoderResult().isFailure()) {
            refuse(new OpenAiException(400, malformedChunk(content.decoderResult().cause()), null,
                "malformed_chunked_body"));
            return;
        }
        if (content instanceof LastHttpContent last && !last.trailingHeaders().isEmpty()) {
            refuse(new OpenAiException(400, ChunkSizeLine.TRAILERS, null, "malformed_chunked_body"));
            return;
        }
        ByteBuf bytes = content.content();
        bodyBytes += bytes.readableBytes();
        if (bodyBytes > RequestBody.ceiling(server.maxBodyBytes())) {
            refuse(TransportErrors.payloadTooLarge());
            return;
        }
        if (bodyBytes > server.maxBodyBytes()) {
            // Read to its end and dropped: answered and closed under the client's upload, it would see a reset.
            tooLarge = true;
            releaseBody();
        } else if (bytes.isReadable()) {
            if (body == null) {
                body = ctx.alloc().heapBuffer((int) Math.min(server.maxBodyBytes(), Math.max(
                    HttpUtil.getContentLength(head, 1024L), bytes.readableBytes())));
            }
            body.writeBytes(bytes);
        }
        if (content instanceof LastHttpContent) {
            requestEnd();
        }
    }

    private void requestEnd() {
        HttpRequest request = head;
        head = null;
        phase = Phase.ANSWERING;
        deadline(NONE);
        byte[] bytes = new byte[body == null ? 0 : body.readableBytes()];
        if (body != null) {
            body.readBytes(bytes);
        }
        releaseBody();
        LargeBodyGate.Turn taken = turn;
        turn = null;
        LoopAnswer answer = answer(request);
        if (tooLarge) {
            close(taken);
            answer.error(TransportErrors.payloadTooLarge());
            return;
        }
        if (endpoint == null) {
            server.page(request, answer);
            return;
        }
        server.complete(endpoint, request, bytes, ctx, answer, taken, this);
    }

    private static void close(LargeBodyGate.Turn turn) {
        if (turn != null) {
            turn.close();
        }
    }

    private LoopAnswer answer() {
        return new LoopAnswer(ctx, false, this);
    }

    private LoopAnswer answer(HttpRequest request) {
        return new LoopAnswer(ctx, HttpUtil.isKeepAlive(request) && request.method() != HttpMethod.CONNECT, this);
    }

    /** Answers {@code error} to what cannot be served, and closes the connection after it. */
    private void refuse(OpenAiException error) {
        head = null;
        phase = Phase.ANSWERING;
        deadline(NONE);
        releaseBody();
        close(turn);
        turn = null;
        answer().error(error);
    }

    /** What is wrong with a chunked body Netty's decoder refused, in fixed text (never the client's bytes). */
    private static String malformedChunk(Throwable cause) {
        if (cause instanceof NumberFormatException) {
            return ChunkSizeLine.NOT_HEX + ", at most 7fffffff";
        }
        return cause instanceof TooLongFrameException ? ChunkSizeLine.TOO_LONG : "Malformed chunked request body";
    }

    /** The completion being answered now. */
    void running(LoopCompletion running) {
        completion = running;
    }

    /** The answer is out ({@link LoopAnswer}): the next request may start, within the idle timeout. */
    void answered(boolean keepAlive) {
        completion = null;
        if (!keepAlive || closed) {
            return;
        }
        phase = Phase.AWAITING;
        deadline(System.nanoTime() + limits.idleTimeout().toNanos());
        readHeld();
    }

    /** Reads what came while the connection was busy, then reads on. */
    private void readHeld() {
        while (!held.isEmpty() && phase != Phase.ANSWERING && !turnPending && !closed) {
            Object msg = held.poll();
            if (phase == Phase.AWAITING && msg instanceof HttpRequest) {
                phase = Phase.HEAD;
            }
            read(msg);
        }
        if (held.isEmpty() && !turnPending && !closed) {
            ctx.channel().config().setAutoRead(true);
        }
    }

    private void releaseBody() {
        if (body != null) {
            body.release();
            body = null;
        }
    }

    /**
     * Sets the phase's deadline. One check is scheduled at a time, at or before it: a later deadline is looked at
     * again when the check comes; an earlier one moves the check.
     */
    private void deadline(long nanos) {
        deadlineNanos = nanos;
        if (nanos == NONE || closed) {
            return;
        }
        if (watch != null && nanos - watchNanos < 0) {
            watch.cancel(false);
            watch = null;
        }
        if (watch == null) {
            watchNanos = nanos;
            watch = ctx.executor().schedule(this::check, Math.max(0, nanos - System.nanoTime()),
                TimeUnit.NANOSECONDS);
        }
    }

    /** Closes a connection that waits for bytes past its deadline; else looks again at the deadline. */
    private void check() {
        watch = null;
        if (closed || deadlineNanos == NONE) {
            return;
        }
        long now = System.nanoTime();
        if (now - deadlineNanos >= 0) {
            if (phase != Phase.ANSWERING && !turnPending) {
                ctx.close();
            }
            return;
        }
        deadline(deadlineNanos);
    }
}
