package dev.sluice.perf.http;

import dev.sluice.transport.openai.OpenAiException;
import dev.sluice.transport.openai.OpenAiJson;
import dev.sluice.transport.openai.SseFrames;
import dev.sluice.transport.openai.StreamAnswer;
import io.netty.buffer.ByteBuf;
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
import java.io.OutputStream;

/**
 * What {@link LoopExchange} writes to its client: one JSON body, or a stream's head and then its events (written by
 * a {@link StreamAnswer} to {@link #stream}), which gather in one buffer until {@link #flush} (the end of a burst of
 * the engine's bytes) sends them in one write; each answer carries serve's {@code x-sluice-*} and
 * {@code x-request-id} headers. A connection not kept alive is closed after the answer. Event loop only.
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

    /**
     * Where a stream's events are written ({@link StreamAnswer} writes them): the stream's head goes out before the
     * first byte, and what is written gathers until {@link #flush} or {@link #end}.
     */
    OutputStream stream() {
        return new OutputStream() {
            @Override
            public void write(int b) {
                pending().writeByte(b);
            }

            @Override
            public void write(byte[] bytes, int offset, int length) {
                pending().writeBytes(bytes, offset, length);
            }
        };
    }

    /** Whether a stream's head has gone: an error can then only be an event of the stream. */
    boolean streaming() {
        return headSent;
    }

    /** Sends what was written since the last flush, in one write. */
    void flush() {
        if (pending != null) {
            client.writeAndFlush(new DefaultHttpContent(pending), client.voidPromise());
            pending = null;
        }
    }

    /** Ends the stream: what was written since the last flush, with the end of the chunked body. */
    void end() {
        if (pending != null) {
            client.write(new DefaultHttpContent(pending), client.voidPromise());
            pending = null;
        }
        last(LastHttpContent.EMPTY_LAST_CONTENT);
    }

    /** The client is gone: what was gathered is dropped. */
    void drop() {
        if (pending != null) {
            pending.release();
            pending = null;
        }
    }

    /** An error as the whole answer: one JSON body with its status. */
    void error(OpenAiException error) {
        whole(HttpResponseStatus.valueOf(error.status()), OpenAiJson.error(error));
    }

    /** The whole answer: one JSON body. */
    void whole(HttpResponseStatus status, byte[] json) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
            Unpooled.wrappedBuffer(json));
        headers(response.headers()).set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
            .setInt(HttpHeaderNames.CONTENT_LENGTH, json.length);
        last(response);
    }

    /** The buffer of what the next flush sends, made with the stream's head written first. */
    private ByteBuf pending() {
        if (!headSent) {
            headSent = true;
            HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
            headers(head.headers()).set(HttpHeaderNames.CONTENT_TYPE, SseFrames.CONTENT_TYPE)
                .set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_CACHE)
                .set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
            client.write(head, client.voidPromise());
        }
        if (pending == null) {
            pending = client.alloc().buffer(512);
        }
        return pending;
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
