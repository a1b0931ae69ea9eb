package dev.sluice.transport.frontend;

import dev.sluice.transport.openai.OpenAiException;
import dev.sluice.transport.openai.OpenAiJson;
import dev.sluice.transport.openai.SseFrames;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.io.OutputStream;

/**
 * One answer on an event-loop connection ({@link LoopServer}): one JSON body, or a stream's head and then its events
 * (written to {@link #stream}, by a {@link dev.sluice.transport.openai.StreamAnswer}), which gather in one buffer
 * until {@link #flush} sends them in one write. The headers set before the head goes out ride on it; their names are
 * written capitalized, as Helidon writes them, for clients that read them as text. A connection not kept alive is
 * closed after the answer; either way its {@link LoopConnection} hears that the answer is out.
 * Event loop only.
 */
final class LoopAnswer {
    /** Header values are ours (ids, decisions), not the client's: not validated again. */
    private static final DefaultHttpHeadersFactory HEADERS = DefaultHttpHeadersFactory.headersFactory()
        .withValidation(false);
    private static final HttpResponseStatus OVERLOADED = new HttpResponseStatus(529, "Overloaded");
    private final ChannelHandlerContext client;
    private final boolean keepAlive;
    private final LoopConnection connection;
    private final HttpHeaders headers = HEADERS.newHeaders();
    private ByteBuf pending;
    private boolean headSent;
    private boolean done;

    LoopAnswer(ChannelHandlerContext client, boolean keepAlive, LoopConnection connection) {
        this.client = client;
        this.keepAlive = keepAlive;
        this.connection = connection;
    }

    /** A header of the answer; ignored once the head is out. */
    void header(CharSequence name, String value) {
        headers.set(name, value);
    }

    /**
     * Where a stream's events are written: the stream's head goes out before the first byte, and what is written
     * gathers until {@link #flush} or {@link #end}.
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

    /** Whether the whole answer is out (or dropped). */
    boolean done() {
        return done;
    }

    /** Sends what was written since the last flush, in one write. */
    void flush() {
        if (pending != null && !done) {
            client.writeAndFlush(new DefaultHttpContent(pending), client.voidPromise());
            pending = null;
        }
    }

    /** Ends the stream: what was written since the last flush, with the end of the chunked body. */
    void end() {
        if (done) {
            return;
        }
        pending();
        client.write(new DefaultHttpContent(pending), client.voidPromise());
        pending = null;
        last(LastHttpContent.EMPTY_LAST_CONTENT);
    }

    /** The client is gone: what was gathered is dropped, and nothing more is written. */
    void drop() {
        done = true;
        if (pending != null) {
            pending.release();
            pending = null;
        }
    }

    /** An error as the whole answer: one JSON body with its status. */
    void error(OpenAiException error) {
        whole(status(error.status()), OpenAiJson.error(error));
    }

    /** The status with its reason phrase: Helidon's, which names 529 (HTTP does not) as {@code Overloaded}. */
    static HttpResponseStatus status(int code) {
        return code == 529 ? OVERLOADED : HttpResponseStatus.valueOf(code);
    }

    /** The whole answer: one JSON body. */
    void whole(HttpResponseStatus status, byte[] json) {
        whole(status, json, "application/json");
    }

    /** The whole answer: one body of {@code contentType}. */
    void whole(HttpResponseStatus status, byte[] body, String contentType) {
        if (done) {
            return;
        }
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
            Unpooled.wrappedBuffer(body), headers(contentType), HEADERS.newEmptyHeaders());
        response.headers().setInt("Content-Length", body.length);
        last(response);
    }

    /** The buffer of what the next flush sends, made with the stream's head written first. */
    private ByteBuf pending() {
        if (!headSent) {
            headSent = true;
            HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                headers(SseFrames.CONTENT_TYPE));
            head.headers().set("Cache-Control", HttpHeaderValues.NO_CACHE)
                .set("Transfer-Encoding", HttpHeaderValues.CHUNKED);
            client.write(head, client.voidPromise());
        }
        if (pending == null) {
            pending = client.alloc().buffer(512);
        }
        return pending;
    }

    private HttpHeaders headers(String contentType) {
        headers.set("Content-Type", contentType);
        if (!keepAlive) {
            headers.set("Connection", HttpHeaderValues.CLOSE);
        }
        return headers;
    }

    /** Writes the answer's last part and flushes; closes the connection after it unless kept alive. */
    private void last(Object message) {
        done = true;
        if (keepAlive) {
            client.writeAndFlush(message, client.voidPromise());
        } else {
            client.writeAndFlush(message).addListener(ChannelFutureListener.CLOSE);
        }
        connection.answered(keepAlive);
    }
}
