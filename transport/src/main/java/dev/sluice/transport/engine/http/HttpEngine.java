package dev.sluice.transport.engine.http;

import dev.sluice.transport.engine.Engine;
import dev.sluice.transport.engine.EngineListener;
import dev.sluice.transport.engine.EngineLoad;
import dev.sluice.transport.engine.EngineRequest;
import dev.sluice.transport.engine.EngineRuntimeConfig;
import dev.sluice.transport.engine.EngineStream;
import dev.sluice.transport.engine.ProbeResult;
import dev.sluice.transport.io.EventLoops;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import java.io.IOException;
import java.net.URI;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A remote OpenAI-compatible server (vLLM, SGLang, {@code sluice mock-engine}, ...) as an {@link Engine}: each
 * request is POSTed to {@code /v1/completions} with the prompt as text when the request carries its text (the
 * engine tokenizes it), else as the list of its token ids (the engine prefills exactly the tokens the router
 * hashed), with {@code stream: true} and
 * {@code stream_options.include_usage}, and streamed back text delta by text delta through
 * {@link EngineListener#onText}; the final usage chunk gives the counts of {@link EngineListener#onFinished}.
 *
 * <p>Threads: each request is a {@link RemoteExchange} on one of the process's shared event loops
 * ({@link EventLoops}): a caller that is itself one of those loops gets its request carried out on its own loop,
 * on an engine connection of that loop (kept alive and pooled per loop by {@link EngineChannels}), and every
 * listener call on that loop; any other caller's request goes to the next loop, whose thread makes its listener
 * calls. Listener calls never come from inside {@link #submit}. The first-token and idle timeouts are tasks on the
 * loop. {@link EngineStream#cancel} closes the request's engine connection, so the server sees the client go and
 * can free the request. Failures reach the listener as
 * {@link EngineListener#onError(dev.sluice.transport.engine.ErrorKind, String)} with a client-safe message.
 * {@link #probe} and {@link #models} ask {@code GET /v1/models} on the caller's thread, through a blocking
 * {@link UpstreamClient} of their own.
 *
 * <p>What a generic OpenAI server does not tell: its capacity ({@link #runtimeConfig} comes from the settings), its
 * load ({@link #load} is this client's own view: the requests it has in flight, nothing about KV blocks) nor its KV
 * cache: those come from its metrics and its KV events, which the frontend reads beside it. It is always one
 * data-parallel rank. Thread-safe.
 */
public final class HttpEngine implements Engine {
    private final long workerId;
    private final HttpEngineSettings settings;
    private final UpstreamClient client;
    private final EngineChannels channels;
    private final String completionsPath;
    private final String authority;
    private final Set<RemoteExchange> live = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /** An engine for worker {@code workerId} (which its log lines name); opens no connection yet. */
    public HttpEngine(long workerId, HttpEngineSettings settings) {
        this.workerId = workerId;
        this.settings = Objects.requireNonNull(settings, "settings");
        this.client = new UpstreamClient(settings);
        URI uri = settings.completionsUri();
        this.channels = new EngineChannels(uri, (int) Math.max(1, Math.min(Integer.MAX_VALUE,
            settings.connectTimeout().toMillis())));
        this.completionsPath = uri.getRawPath();
        this.authority = uri.getRawAuthority();
    }

    /**
     * Starts the request on the caller's event loop when the caller is one of the shared loops, else on the next
     * loop; its listener is called on that loop, never from inside this call.
     *
     * @throws IllegalArgumentException if the request has a rank other than 0.
     * @throws IllegalStateException    if the engine is closed.
     */
    @Override
    public EngineStream submit(EngineRequest request, EngineListener listener) {
        Objects.requireNonNull(listener, "listener");
        if (request.dpRank() != 0) {
            throw new IllegalArgumentException("a remote engine has only rank 0, was " + request.dpRank());
        }
        if (closed) {
            throw new IllegalStateException("the engine at " + settings.baseUrl() + " is closed");
        }
        RemoteExchange exchange = new RemoteExchange(this, request, listener, EventLoops.current());
        live.add(exchange);
        if (closed) {
            // close() may have swept the live set before the add: stop this one too.
            exchange.stop();
        }
        // A task even on the caller's own loop: the listener hears nothing before submit has returned.
        exchange.loop().execute(exchange);
        return exchange;
    }

    @Override
    public EngineRuntimeConfig runtimeConfig() {
        return settings.runtimeConfig();
    }

    /** This frontend's view: its requests in flight as running; no KV usage, which the server does not publish. */
    @Override
    public EngineLoad load(int dpRank) {
        if (dpRank != 0) {
            throw new IndexOutOfBoundsException("a remote engine has only rank 0, was " + dpRank);
        }
        return new EngineLoad(0, 0, 0, settings.runtimeConfig().totalKvBlocks(), live.size(), 0, 0.0, 0);
    }

    @Override
    public String address() {
        return settings.baseUrl();
    }

    /**
     * {@code GET /v1/models}, which every OpenAI-compatible server answers without touching its GPUs: reachable on
     * any 2xx. The probe has the connect timeout to connect and the same again to answer, on a connection it then
     * closes; its body is discarded.
     */
    @Override
    public ProbeResult probe() {
        Answer answer = getModels(false);
        if (answer.failure() != null) {
            return ProbeResult.unreachable(answer.failure());
        }
        return answer.status() / 100 == 2 ? ProbeResult.REACHABLE : ProbeResult.unreachable("GET /v1/models answered "
            + "HTTP " + answer.status());
    }

    /**
     * The models the engine serves, from its {@code GET /v1/models} (with the probe's timeouts), or why they could
     * not be read. On the caller's thread; never throws.
     */
    public ModelListing models() {
        Answer answer = getModels(true);
        if (answer.failure() != null) {
            return ModelListing.failed(answer.failure());
        }
        return answer.status() / 100 == 2 ? ModelListing.parse(answer.body())
            : ModelListing.failed("GET /v1/models answered HTTP " + answer.status());
    }

    /** The status and (when asked for) body of a {@code GET}, or a client-safe message saying why there is none. */
    private record Answer(int status, byte[] body, String failure) {
        static Answer failed(String failure) {
            return new Answer(0, null, failure);
        }
    }

    /** Bodies of {@code GET /v1/models} beyond this are not a model listing. */
    private static final int MAX_MODELS_BYTES = 1 << 20;

    private Answer getModels(boolean withBody) {
        if (closed) {
            return Answer.failed("the engine is closed");
        }
        // Not kept alive: each probe then also shows the engine still accepts connections, and it reads with the
        // connect timeout, not the completions' one.
        try (UpstreamConnection connection = client.getModels()) {
            int status = connection.head().status();
            return new Answer(status, withBody ? connection.readBody(MAX_MODELS_BYTES) : null, null);
        } catch (IOException | RuntimeException e) {
            if (UpstreamFailure.isConnectFailure(e)) {
                return Answer.failed(UpstreamFailure.beforeResponse(e, settings.connectTimeout()).message());
            }
            if (UpstreamFailure.isTimeout(e)) {
                return Answer.failed("GET /v1/models got no answer within "
                    + UpstreamFailure.describe(settings.connectTimeout()));
            }
            if (e instanceof UpstreamProtocolException) {
                return Answer.failed("GET /v1/models failed: " + e.getMessage());
            }
            return Answer.failed("GET /v1/models failed: " + UpstreamFailure.rootCause(e));
        }
    }

    public HttpEngineSettings settings() {
        return settings;
    }

    /** Aborts every request in flight (each ends with an error) and closes the idle connections. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (RemoteExchange exchange : live) {
            exchange.stop();
        }
        channels.close();
    }

    /** The worker this engine serves, for log lines. */
    long workerId() {
        return workerId;
    }

    EngineChannels channels() {
        return channels;
    }

    /** The {@code POST} of a completion with {@code x-request-id: requestId} and {@code body}, which it takes. */
    FullHttpRequest completionRequest(String requestId, ByteBuf body) {
        FullHttpRequest post = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, completionsPath,
            body);
        post.headers().set(HttpHeaderNames.HOST, authority)
            .set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
            .set(HttpHeaderNames.ACCEPT, HttpHeaderValues.TEXT_EVENT_STREAM)
            .set("x-request-id", requestId)
            .set(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
        return post;
    }

    /**
     * Checks that a request id may go into a header: visible ASCII only (a control character, CR or LF would forge
     * one).
     *
     * @throws IllegalArgumentException if it may not.
     */
    static void checkHeaderValue(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < ' ' && c != '\t' || c >= 127) {
                throw new IllegalArgumentException("a request header may carry only visible ASCII, not U+"
                    + String.format("%04X", (int) c));
            }
        }
    }

    void ended(RemoteExchange exchange) {
        live.remove(exchange);
    }
}
