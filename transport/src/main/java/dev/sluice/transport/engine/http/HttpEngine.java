package dev.sluice.transport.engine.http;

import dev.sluice.transport.engine.Engine;
import dev.sluice.transport.engine.EngineListener;
import dev.sluice.transport.engine.EngineLoad;
import dev.sluice.transport.engine.EngineRequest;
import dev.sluice.transport.engine.EngineRuntimeConfig;
import dev.sluice.transport.engine.EngineStream;
import dev.sluice.transport.engine.ProbeResult;
import io.helidon.http.HeaderNames;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
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
 * <p>Threads: one reader virtual thread per request sends it and reads the answer with blocking socket I/O through
 * Helidon's HTTP/1.1 {@link Http1Client} (keep-alive connections pooled per engine, with the connect timeout), and
 * makes all of that request's listener calls; one timer thread per engine enforces the first-token and idle
 * timeouts. {@link EngineStream#cancel} interrupts the reader, which closes its connection (a virtual thread's
 * blocking socket I/O is interruptible), so the server sees the client go and can free the request. Failures reach
 * the listener as
 * {@link EngineListener#onError(dev.sluice.transport.engine.ErrorKind, String)} with a client-safe message.
 * {@link #probe} asks {@code GET /v1/models} on the caller's thread, through the same client.
 *
 * <p>What a generic OpenAI server does not tell: its capacity ({@link #runtimeConfig} comes from the settings), its
 * load ({@link #load} is this client's own view: the requests it has in flight, nothing about KV blocks) nor its KV
 * cache: those come from its metrics and its KV events, which the frontend reads beside it. It is always one
 * data-parallel rank. Thread-safe.
 */
public final class HttpEngine implements Engine {
    /**
     * Idle keep-alive connections kept per engine; a request beyond them opens (and then closes) its own. Helidon
     * watches each idle one with a read that wakes every 101 ms, so the cache is kept modest.
     */
    private static final int CONNECTION_CACHE_SIZE = 128;
    private final HttpEngineSettings settings;
    private final Http1Client client;
    private final ScheduledThreadPoolExecutor timers;
    private final Set<RemoteExchange> live = ConcurrentHashMap.newKeySet();
    private final String threadPrefix;
    private volatile boolean closed;

    /** An engine for worker {@code workerId} (used in thread names); opens no connection yet. */
    public HttpEngine(long workerId, HttpEngineSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.threadPrefix = "sluice-remote-" + workerId + "-";
        this.client = Http1Client.builder()
            // Helidon's client leaves Nagle on: a request written in more than one segment would then wait for
            // the engine's (delayed) ACK of the first before the rest goes, up to 40 ms on Linux.
            .socketOptions(options -> options.tcpNoDelay(true))
            .connectTimeout(settings.connectTimeout())
            .readTimeout(socketReadTimeout(settings))
            .followRedirects(false)
            .keepAlive(true)
            .shareConnectionCache(false)
            .connectionCacheSize(CONNECTION_CACHE_SIZE)
            .sendExpectContinue(false)
            .servicesDiscoverServices(false)
            .build();
        this.timers = new ScheduledThreadPoolExecutor(1, Thread.ofPlatform().daemon().name(threadPrefix + "timer")
            .factory());
        // Timers are cancelled at the first token, almost always long before they are due: drop them at once.
        timers.setRemoveOnCancelPolicy(true);
    }

    /**
     * The socket read timeout: longer than the first-token and idle timeouts, which bound every wait (they interrupt
     * the reader), so it never fires first. It is also how long Helidon's client keeps an idle pooled connection
     * watched before it drops it: a connection dropped just as a request takes it fails that request, so it must not
     * be short (with none, Helidon drops an idle connection after 101 ms). No idle limit: no read timeout.
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
        Thread.ofVirtual().name(threadPrefix + request.requestId()).start(exchange);
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
        // Not kept alive: Helidon watches an idle pooled connection for as long as its last read timeout and then
        // drops it, so one left with this short timeout would die under the next completion that takes it.
        try (Http1ClientResponse response = client.get().uri(settings.modelsUri()).keepAlive(false)
            .readTimeout(settings.connectTimeout()).header(HeaderNames.ACCEPT, "application/json").request()) {
            int status = response.status().code();
            byte[] body = null;
            try (InputStream in = response.inputStream()) {
                body = withBody ? in.readNBytes(MAX_MODELS_BYTES) : null;
                in.transferTo(OutputStream.nullOutputStream());
            }
            return new Answer(status, body, null);
        } catch (IOException | UncheckedIOException e) {
            if (UpstreamFailure.isConnectFailure(e)) {
                return Answer.failed(UpstreamFailure.beforeResponse(e, settings.connectTimeout()).message());
            }
            if (UpstreamFailure.isTimeout(e)) {
                return Answer.failed("GET /v1/models got no answer within "
                    + UpstreamFailure.describe(settings.connectTimeout()));
            }
            return Answer.failed("GET /v1/models failed: " + UpstreamFailure.rootCause(e));
        } catch (RuntimeException e) {
            return Answer.failed("GET /v1/models failed: " + e);
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
        client.closeResource();
    }

    Http1Client client() {
        return client;
    }

    ScheduledExecutorService timers() {
        return timers;
    }

    void ended(RemoteExchange exchange) {
        live.remove(exchange);
    }
}
