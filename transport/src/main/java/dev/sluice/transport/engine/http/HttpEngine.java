package dev.sluice.transport.engine.http;

import dev.sluice.transport.engine.Engine;
import dev.sluice.transport.engine.EngineCall;
import dev.sluice.transport.engine.EngineListener;
import dev.sluice.transport.engine.EngineLoad;
import dev.sluice.transport.engine.EngineRequest;
import dev.sluice.transport.engine.EngineRuntimeConfig;
import dev.sluice.transport.engine.EngineStream;
import dev.sluice.transport.engine.ProbeResult;
import java.io.IOException;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;

/**
 * A remote OpenAI-compatible server (vLLM, SGLang, {@code sluice mock-engine}, ...) as an {@link Engine}: each
 * request is POSTed to {@code /v1/completions} with the prompt as text when the request carries its text (the
 * engine tokenizes it), else as the list of its token ids (the engine prefills exactly the tokens the router
 * hashed), with {@code stream: true} and
 * {@code stream_options.include_usage}, and streamed back text delta by text delta through
 * {@link EngineListener#onText}; the final usage chunk gives the counts of {@link EngineListener#onFinished}.
 *
 * <p>Threads: one reader virtual thread per request (for {@link #call}, the caller's own thread) sends it and reads
 * the answer with blocking socket I/O through the engine's own lean HTTP/1.1 client, {@link UpstreamClient}
 * (keep-alive connections pooled per engine, the request in one write, the answer decoded in a buffer kept per
 * connection), and makes all of that request's listener calls; one timer thread per engine enforces the first-token
 * and idle timeouts. {@link EngineStream#cancel} interrupts the reader while the exchange runs (never after it), which
 * closes its connection (a virtual thread's blocking socket I/O is interruptible), so the server sees the client go
 * and can free the request. Failures reach the listener as
 * {@link EngineListener#onError(dev.sluice.transport.engine.ErrorKind, String)} with a client-safe message.
 * {@link #probe} asks {@code GET /v1/models} on the caller's thread, through the same client.
 *
 * <p>What a generic OpenAI server does not tell: its capacity ({@link #runtimeConfig} comes from the settings), its
 * load ({@link #load} is this client's own view: the requests it has in flight, nothing about KV blocks) nor its KV
 * cache: those come from its metrics and its KV events, which the frontend reads beside it. It is always one
 * data-parallel rank. Thread-safe.
 */
public final class HttpEngine implements Engine {
    private final HttpEngineSettings settings;
    private final UpstreamClient client;
    private final ScheduledThreadPoolExecutor timers;
    private final Set<RemoteExchange> live = ConcurrentHashMap.newKeySet();
    private final String threadPrefix;
    private volatile boolean closed;

    /** An engine for worker {@code workerId} (used in thread names); opens no connection yet. */
    public HttpEngine(long workerId, HttpEngineSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.threadPrefix = "sluice-remote-" + workerId + "-";
        this.client = new UpstreamClient(settings, socketReadTimeout(settings));
        this.timers = new ScheduledThreadPoolExecutor(1, Thread.ofPlatform().daemon().name(threadPrefix + "timer")
            .factory());
        // Timers are cancelled at the first token, almost always long before they are due: drop them at once.
        timers.setRemoveOnCancelPolicy(true);
    }

    /**
     * The socket read timeout of completions: longer than the first-token and idle timeouts, which bound every wait
     * (they interrupt the reader); it only backs them up, and when it fires as they do the exchange ends as they
     * would have ended it. No idle limit: the longest a socket takes.
     */
    static Duration socketReadTimeout(HttpEngineSettings settings) {
        Duration most = Duration.ofMillis(Integer.MAX_VALUE);
        if (settings.streamIdleTimeout().isZero()) {
            return most;
        }
        Duration longest = settings.firstTokenTimeout().compareTo(settings.streamIdleTimeout()) > 0
            ? settings.firstTokenTimeout() : settings.streamIdleTimeout();
        Duration timeout = longest.plusSeconds(1);
        return timeout.compareTo(most) > 0 ? most : timeout;
    }

    /**
     * Starts the request on a new reader virtual thread.
     *
     * @throws IllegalArgumentException if the request has a rank other than 0.
     * @throws IllegalStateException    if the engine is closed.
     */
    @Override
    public EngineStream submit(EngineRequest request, EngineListener listener) {
        RemoteExchange exchange = open(request, listener);
        Thread.ofVirtual().name(threadName(request)).start(exchange);
        return exchange;
    }

    /**
     * The request as an exchange the caller runs: a virtual caller's own thread sends it and reads the answer, with
     * no reader thread beside it (a platform thread waits for a reader of its own, since only a virtual thread's
     * socket I/O stops when a cancel interrupts it).
     *
     * @throws IllegalArgumentException if the request has a rank other than 0.
     * @throws IllegalStateException    if the engine is closed.
     */
    @Override
    public EngineCall call(EngineRequest request, EngineListener listener) {
        return open(request, listener);
    }

    private RemoteExchange open(EngineRequest request, EngineListener listener) {
        Objects.requireNonNull(listener, "listener");
        if (request.dpRank() != 0) {
            throw new IllegalArgumentException("a remote engine has only rank 0, was " + request.dpRank());
        }
        if (closed) {
            throw new IllegalStateException("the engine at " + settings.baseUrl() + " is closed");
        }
        RemoteExchange exchange = new RemoteExchange(this, request, listener);
        live.add(exchange);
        if (closed) {
            // close() may have swept the live set before the add: stop this one too.
            exchange.stop();
        }
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

    /** Aborts every request in flight (each ends with an error) and releases the client and the timer. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (RemoteExchange exchange : live) {
            exchange.stop();
        }
        timers.shutdownNow();
        client.close();
    }

    /** The name of the virtual thread that reads {@code request}'s answer when it has one of its own. */
    String threadName(EngineRequest request) {
        return threadPrefix + request.requestId();
    }

    UpstreamClient client() {
        return client;
    }

    ScheduledExecutorService timers() {
        return timers;
    }

    void ended(RemoteExchange exchange) {
        live.remove(exchange);
    }
}
