package dev.sluice.perf.http;

import dev.sluice.transport.openai.OpenAiException;
import dev.sluice.transport.openai.OpenAiJson;
import dev.sluice.transport.openai.SseFrames;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * What {@link LoopExchange} writes to its client: one JSON body, or a stream's head and then its events, which
 * gather in one buffer until {@link #flush} (the end of a burst of the engine's bytes) sends them in one write; each
 * answer carries serve's {@code x-sluice-*} and {@code x-request-id} headers. An error after a stream's head becomes
 * an error event and {@code [DONE]}. A connection not kept alive is closed after the answer. Event loop only.
 */
final class LoopAnswer {
    private final ChannelHandlerContext client;
    private final String requestId;
    private final String clientId;
    private final boolean keepAlive;
    private String decision;
    private String policyClass;
    private ByteBuf pending;
    private boolean headSent;

    LoopAnswer(ChannelHandlerContext client, String requestId, String clientId, boolean keepAlive) {
        this.client = client;
        this.requestId = requestId;
        this.clientId = clientId;
        this.keepAlive = keepAlive;
    }

    /** What admission decided, for the headers: {@code dispatched; waited_ms=0.1}, and the class (or null). */
    void decision(String decided, String underClass) {
        decision = decided;
        policyClass = underClass;
    }

    /** Appends one SSE event to what the next flush sends, the stream's head first. */
    void event(byte[] json) {
        if (!headSent) {
            headSent = true;
            HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
            headers(head.headers()).set(HttpHeaderNames.CONTENT_TYPE, SseFrames.CONTENT_TYPE)
                .set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_CACHE)
                .set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
            client.write(head, client.voidPromise());
        }
        try (ByteBufOutputStream out = pending()) {
            SseFrames.event(out, json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends the events gathered since the last flush, in one write. */
    void flush() {
        if (pending != null) {
            client.writeAndFlush(new DefaultHttpContent(pending), client.voidPromise());
            pending = null;
        }
    }

    /** Ends the stream: {@code [DONE]} after the events gathered, all sent with the end of the chunked body. */
    void done() {
        try (ByteBufOutputStream out = pending()) {
            SseFrames.done(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        client.write(new DefaultHttpContent(pending), client.voidPromise());
        pending = null;
        last(LastHttpContent.EMPTY_LAST_CONTENT);
    }

    /** The client is gone: what was gathered is dropped. */
    void drop() {
        if (pending != null) {
            pending.release();
            pending = null;
        }
    }

    /** {@code error} as the whole answer, or as the stream's last event when its head has gone. */
    void error(OpenAiException error) {
        if (!headSent) {
            whole(HttpResponseStatus.valueOf(error.status()), OpenAiJson.error(error));
            return;
        }
        event(OpenAiJson.error(error));
        done();
    }

    /** The whole answer: one JSON body. */
    void whole(HttpResponseStatus status, byte[] json) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
            Unpooled.wrappedBuffer(json));
        headers(response.headers()).set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
            .setInt(HttpHeaderNames.CONTENT_LENGTH, json.length);
        last(response);
    }

    private ByteBufOutputStream pending() {
        if (pending == null) {
            pending = client.alloc().buffer(512);
        }
        return new ByteBufOutputStream(pending);
    }

    private HttpHeaders headers(HttpHeaders headers) {
        headers.set("x-sluice-request-id", requestId).set("x-request-id", clientId != null ? clientId : requestId);
        if (decision != null) {
            headers.set("x-sluice-decision", decision);
        }
        if (policyClass != null) {
            headers.set("x-sluice-policy-class", policyClass);
        }
        if (!keepAlive) {
            headers.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        }
        return headers;
    }

    /** Writes the answer's last part and flushes; closes the connection after it unless kept alive. */
    private void last(Object message) {
        if (keepAlive) {
            client.writeAndFlush(message, client.voidPromise());
        } else {
            client.writeAndFlush(message).addListener(ChannelFutureListener.CLOSE);
        }
    }

    /** Refuses a request outright with {@code status} and closes the connection. */
    static void refuse(ChannelHandlerContext ctx, int status, String message) {
        byte[] json = OpenAiJson.error(new OpenAiException(status, message, null, "invalid_request"));
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
            HttpResponseStatus.valueOf(status), Unpooled.wrappedBuffer(json));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
            .setInt(HttpHeaderNames.CONTENT_LENGTH, json.length).set(HttpHeaderNames.CONNECTION,
                HttpHeaderValues.CLOSE);
        ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
    }
}
