package dev.sluice.perf.http;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.AdmissionListener;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.kv.BlockHasher;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.transport.engine.EngineRequest;
import dev.sluice.transport.engine.FinishReason;
import dev.sluice.transport.engine.http.CompletionBody;
import dev.sluice.transport.engine.http.CompletionStreamAdapter;
import dev.sluice.transport.engine.http.SseParser;
import dev.sluice.transport.openai.CompletionHeader;
import dev.sluice.transport.openai.CompletionRequest;
import dev.sluice.transport.openai.CompletionRequestReader;
import dev.sluice.transport.openai.OpenAiException;
import dev.sluice.transport.openai.OpenAiJson;
import dev.sluice.transport.openai.StreamAnswer;
import dev.sluice.transport.tokenize.EncodedPrompt;
import dev.sluice.transport.tokenize.PromptException;
import dev.sluice.transport.tokenize.WordPromptEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.Arrays;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One request through {@link LoopServe}, on its client connection's event loop from start to end: parse, tokenize,
 * admission (the router's callback hops onto the loop when the scheduler thread makes it), the engine's stream read
 * on a connection of the same loop, the answer written as serve writes it (a stream's events flushed when a burst of
 * the engine's bytes has been read), the lifecycle reported to the router before the client has the last bytes. Ends
 * in exactly one of: an error answer before admission, a rejection, completed, aborted. Event loop only, but for the
 * router's callbacks, which only hand over.
 */
final class LoopExchange implements AdmissionListener, EnginePools.Answer, EnginePools.Lender {
    private static final AtomicLong IDS = new AtomicLong();
    private static final int MAX_LINE_BYTES = 1 << 20;
    private static final String COMPLETIONS = "/v1/completions";

    /**
     * What every exchange of the server shares; {@code engineWhole}: a client that asks for a whole answer has the
     * engine asked for one too, instead of its stream.
     */
    record Shared(ModelRouter router, URI engine, EnginePools pools, int overloadStatus, boolean engineWhole,
                  CompletionRequestReader reader, BlockHasher hasher, String host) {
        Shared(ModelRouter router, URI engine, EnginePools pools, int overloadStatus, int blockSize,
               boolean engineWhole) {
            this(router, engine, pools, overloadStatus, engineWhole, new CompletionRequestReader(256),
                new BlockHasher(blockSize), engine.getHost() + ":" + engine.getPort());
        }
    }

    private final Shared shared;
    private final ChannelHandlerContext client;
    private final EventLoop loop;
    private String requestId;
    private LoopAnswer answer;
    private CompletionRequest request;
    private EncodedPrompt prompt;
    private long lifecycle = -1;
    private boolean admitted;
    private Channel engine;
    private CompletionStreamAdapter adapter;
    private SseParser parser;
    private byte[] scratch = new byte[1024];
    /** Whether the engine was asked for one whole answer, which gathers in {@link #scratch} until its end. */
    private boolean engineWhole;
    private int gathered;
    private CompletionHeader header;
    /** A stream's events, made when the engine's connection is lent; null for a whole answer. */
    private StreamAnswer events;
    private final StringBuilder whole = new StringBuilder();
    private long tokens;
    private boolean ended;

    LoopExchange(Shared shared, ChannelHandlerContext client) {
        this.shared = shared;
        this.client = client;
        this.loop = client.channel().eventLoop();
    }

    boolean ended() {
        return ended;
    }

    void start(FullHttpRequest http) {
        requestId = "sluice-" + Long.toHexString(System.nanoTime()) + "-" + IDS.incrementAndGet();
        answer = new LoopAnswer(client, requestId, http.headers().get("x-request-id"), HttpUtil.isKeepAlive(http));
        AdmissionRequest admission;
        try {
            CompletionRequest.Endpoint endpoint = endpoint(http);
            byte[] body = new byte[http.content().readableBytes()];
            http.content().getBytes(http.content().readerIndex(), body);
            request = shared.reader().read(endpoint, body);
            if (!request.model().equals(LoopServe.MODEL)) {
                throw new OpenAiException(404, "The model `" + request.model() + "` is not served here", "model",
                    "model_not_found");
            }
            prompt = request.prompt().encode(WordPromptEncoder.INSTANCE);
            admission = AdmissionRequest.builder(requestId).clientRequestId(http.headers().get("x-request-id"))
                .promptTokens(prompt.tokens(), shared.hasher()).build();
        } catch (OpenAiException e) {
            ended = true;
            answer.error(e);
            return;
        } catch (PromptException e) {
            ended = true;
            answer.error(OpenAiException.invalid(e.getMessage(), e.param()));
            return;
        }
        lifecycle = shared.router().submit(admission, this);
    }

    private static CompletionRequest.Endpoint endpoint(FullHttpRequest http) throws OpenAiException {
        if (http.method().equals(HttpMethod.POST)) {
            if (http.uri().equals("/v1/chat/completions")) {
                return CompletionRequest.Endpoint.CHAT;
            }
            if (http.uri().equals(COMPLETIONS)) {
                return CompletionRequest.Endpoint.COMPLETIONS;
            }
        }
        throw new OpenAiException(404, "no route for " + http.method() + " " + http.uri(), null, "not_found");
    }

    @Override
    public void onDispatched(long lifecycleId, WorkerWithDpRank worker) {
        onDispatched(lifecycleId, worker, null, 0);
    }

    @Override
    public void onDispatched(long lifecycleId, WorkerWithDpRank worker, String admittedUnder, long waited) {
        onLoop(() -> dispatched(lifecycleId, admittedUnder, waited));
    }

    @Override
    public void onRejected(long lifecycleId, AdmissionError error) {
        onRejected(lifecycleId, error, null);
    }

    @Override
    public void onRejected(long lifecycleId, AdmissionError error, String rejectedIn) {
        onLoop(() -> {
            lifecycle = lifecycleId;
            answer.decision("rejected; code=" + error.reason(), rejectedIn);
            if (!ended) {
                ended = true;
                answer.error(new OpenAiException(error.httpStatus(shared.overloadStatus()), error.publicMessage(), null,
                    error.reason()));
            }
        });
    }

    private void onLoop(Runnable step) {
        if (loop.inEventLoop()) {
            step.run();
        } else {
            loop.execute(step);
        }
    }

    private void dispatched(long lifecycleId, String admittedUnder, long waitedNanos) {
        lifecycle = lifecycleId;
        admitted = true;
        long tenths = Math.round(Math.max(0, waitedNanos) / 1e5);
        answer.decision("dispatched; waited_ms=" + tenths / 10 + "." + tenths % 10, admittedUnder);
        if (ended) {
            shared.router().aborted(lifecycle, new CancellationException("client disconnected"));
            return;
        }
        shared.pools().borrow(loop, this, this);
    }

    @Override
    public void lent(Channel channel) {
        if (ended) {
            EnginePools.abandon(channel);
            return;
        }
        engine = channel;
        ByteBuf body = channel.alloc().buffer(256);
        engineWhole = shared.engineWhole() && !request.stream();
        try {
            CompletionBody.write(new ByteBufOutputStream(body), LoopServe.MODEL, new EngineRequest(requestId,
                prompt.tokens(), request.maxTokens(), 0, prompt.text()), !engineWhole);
        } catch (IOException e) {
            body.release();
            throw new UncheckedIOException(e);
        }
        FullHttpRequest post = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, COMPLETIONS, body);
        post.headers().set(HttpHeaderNames.HOST, shared.host()).set(HttpHeaderNames.CONTENT_TYPE,
            HttpHeaderValues.APPLICATION_JSON).set(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes())
            .set("x-request-id", requestId);
        adapter = new CompletionStreamAdapter(this::text);
        // A whole answer from the engine is no event stream: it gathers, and the adapter reads it at the end.
        parser = engineWhole ? null : new SseParser(adapter, MAX_LINE_BYTES);
        header = CompletionHeader.of(request.endpoint(), requestId, System.currentTimeMillis() / 1000,
            LoopServe.MODEL);
        if (request.stream()) {
            events = new StreamAnswer(answer.stream(), header, request.includeUsage());
        }
        channel.writeAndFlush(post, channel.voidPromise());
    }

    @Override
    public void failed(Throwable cause) {
        fail(503, "the engine is unavailable", "engine_unavailable");
    }

    @Override
    public void onHead(HttpResponse head) {
        if (head.status().code() != 200) {
            EnginePools.abandon(engine);
            fail(502, "the engine answered HTTP " + head.status().code(), "engine_error");
        }
    }

    @Override
    public void onContent(HttpContent content) {
        if (ended) {
            return;
        }
        ByteBuf bytes = content.content();
        int length = bytes.readableBytes();
        if (engineWhole) {
            gather(bytes, length);
            return;
        }
        if (length > scratch.length) {
            scratch = new byte[Math.max(length, scratch.length * 2)];
        }
        bytes.getBytes(bytes.readerIndex(), scratch, 0, length);
        if (!parser.feed(scratch, 0, length)) {
            EnginePools.abandon(engine);
            fail(502, "the engine sent an event line over 1 MiB", "engine_error");
        } else if (adapter.errorKind() != null) {
            EnginePools.abandon(engine);
            fail(502, "the engine failed the request: " + adapter.errorMessage(), "engine_error");
        }
    }

    /** Adds a piece of the engine's whole answer to what has come of it, up to the bound of one event line. */
    private void gather(ByteBuf bytes, int length) {
        if (gathered + length > MAX_LINE_BYTES) {
            EnginePools.abandon(engine);
            fail(502, "the engine sent an answer over 1 MiB", "engine_error");
            return;
        }
        if (gathered + length > scratch.length) {
            scratch = Arrays.copyOf(scratch, Math.max(gathered + length, scratch.length * 2));
        }
        bytes.getBytes(bytes.readerIndex(), scratch, gathered, length);
        gathered += length;
    }

    /**
     * Text from the engine. The router hears of the first token with it: for a whole answer from the engine, only
     * when the answer has come, so the worker's prefill stays booked until then.
     */
    private void text(String piece) {
        if (ended) {
            return;
        }
        if (tokens == 0) {
            shared.router().responding(lifecycle);
        }
        if (events != null) {
            write(() -> events.token(piece));
        } else {
            whole.append(piece);
        }
        tokens++;
    }

    @Override
    public void onEnd() {
        engine = null;
        if (ended) {
            return;
        }
        if (engineWhole) {
            // A whole answer has the shape of one chunk of the stream: the adapter reads it as one event.
            adapter.onEvent("message", scratch, 0, gathered);
        }
        if (adapter.errorKind() != null) {
            fail(502, "the engine failed the request: " + adapter.errorMessage(), "engine_error");
        } else if (adapter.done() || adapter.finishReason() != null) {
            finish();
        } else {
            fail(502, "the engine closed the stream before it ended", "engine_error");
        }
    }

    @Override
    public void onBurstEnd() {
        answer.flush();
    }

    @Override
    public void onLost(Throwable cause) {
        engine = null;
        fail(502, "the connection to the engine was lost mid-stream", "engine_error");
    }

    /** The client went: the request is aborted at the router (when admitted) and its engine connection closed. */
    void clientGone() {
        if (ended) {
            return;
        }
        ended = true;
        if (engine != null) {
            EnginePools.abandon(engine);
            engine = null;
        }
        if (admitted) {
            shared.router().aborted(lifecycle, new CancellationException("client disconnected"));
        }
        answer.drop();
    }

    private void finish() {
        ended = true;
        FinishReason reason = adapter.finishReason() != null ? adapter.finishReason()
            : tokens >= request.maxTokens() ? FinishReason.LENGTH : FinishReason.STOP;
        long promptTokens = adapter.promptTokens() >= 0 ? adapter.promptTokens() : prompt.tokens().length;
        long completionTokens = adapter.completionTokens() >= 0 ? adapter.completionTokens() : tokens;
        // Before the client has the last bytes, as serve does: the client's next request comes after this one's end.
        shared.router().completed(lifecycle, promptTokens + completionTokens);
        if (events == null) {
            answer.whole(HttpResponseStatus.OK, OpenAiJson.completion(header, whole.toString(), reason.wireName(),
                promptTokens, completionTokens));
            return;
        }
        write(() -> events.finished(reason.wireName(), promptTokens, completionTokens));
        answer.end();
    }

    /** The engine failed the admitted request: aborted at the router, the client told (an error event mid-stream). */
    private void fail(int status, String message, String code) {
        if (ended) {
            return;
        }
        ended = true;
        shared.router().aborted(lifecycle, new IOException(message));
        OpenAiException error = new OpenAiException(status, message, null, code);
        if (answer.streaming()) {
            write(() -> events.failed(error));
            answer.end();
        } else {
            answer.error(error);
        }
    }

    /** A write into the stream's buffer, which cannot fail with an I/O error. */
    private interface BufferWrite {
        void run() throws IOException;
    }

    private static void write(BufferWrite write) {
        try {
            write.run();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
