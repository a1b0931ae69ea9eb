package dev.sluice.transport.engine.http;

import dev.sluice.transport.engine.Engine;
import dev.sluice.transport.engine.EngineListener;
import dev.sluice.transport.engine.EngineLoad;
import dev.sluice.transport.engine.EngineRequest;
import dev.sluice.transport.engine.EngineRuntimeConfig;
import dev.sluice.transport.engine.EngineStream;
import dev.sluice.transport.engine.ProbeResult;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
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
 * <p>Threads: one reader virtual thread per request blocks on the JDK {@link HttpClient} (HTTP/1.1, with the
 * connect timeout) and makes all of that request's listener calls; one timer thread per engine enforces the
 * first-token timeout. {@link EngineStream#cancel} aborts the HTTP exchange, which closes the connection, so the
 * server sees the client go and can free the request. Failures reach the listener as
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
    private final HttpClient client;
    private final ScheduledThreadPoolExecutor timers;
    private final Set<RemoteExchange> live = ConcurrentHashMap.newKeySet();
    private final String threadPrefix;
    private volatile boolean closed;

    /** An engine for worker {@code workerId} (used in thread names); opens no connection yet. */
    public HttpEngine(long workerId, HttpEngineSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.threadPrefix = "sluice-remote-" + workerId + "-";
        this.client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(settings.connectTimeout())
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
        this.timers = new ScheduledThreadPoolExecutor(1, Thread.ofPlatform().daemon().name(threadPrefix + "timer")
            .factory());
        // Timers are cancelled at the first token, almost always long before they are due: drop them at once.
        timers.setRemoveOnCancelPolicy(true);
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
     * any 2xx. The probe has the connect timeout to connect and the same again to answer; its body is discarded.
     */
    @Override
    public ProbeResult probe() {
        Answer<Void> answer = getModels(HttpResponse.BodyHandlers.discarding());
        if (answer.failure() != null) {
            return ProbeResult.unreachable(answer.failure());
        }
        int status = answer.response().statusCode();
        return status / 100 == 2 ? ProbeResult.REACHABLE : ProbeResult.unreachable("GET /v1/models answered HTTP "
            + status);
    }

    /**
     * The models the engine serves, from its {@code GET /v1/models} (with the probe's timeouts), or why they could
     * not be read. On the caller's thread; never throws.
     */
    public ModelListing models() {
        Answer<byte[]> answer = getModels(HttpResponse.BodyHandlers.ofByteArray());
        if (answer.failure() != null) {
            return ModelListing.failed(answer.failure());
        }
        HttpResponse<byte[]> response = answer.response();
        return response.statusCode() / 100 == 2 ? ModelListing.parse(response.body())
            : ModelListing.failed("GET /v1/models answered HTTP " + response.statusCode());
    }

    /** The response to a {@code GET}, or a client-safe message saying why there is none. */
    private record Answer<T>(HttpResponse<T> response, String failure) {
        static <T> Answer<T> failed(String failure) {
            return new Answer<>(null, failure);
        }
    }

    private <T> Answer<T> getModels(HttpResponse.BodyHandler<T> body) {
        if (closed) {
            return Answer.failed("the engine is closed");
        }
        HttpRequest request = HttpRequest.newBuilder(settings.modelsUri()).timeout(settings.connectTimeout())
            .header("accept", "application/json").GET().build();
        try {
            return new Answer<>(client.send(request, body), null);
        } catch (HttpConnectTimeoutException | ConnectException e) {
            return Answer.failed(UpstreamFailure.beforeResponse(e, settings.connectTimeout()).message());
        } catch (HttpTimeoutException e) {
            return Answer.failed("GET /v1/models got no answer within "
                + UpstreamFailure.describe(settings.connectTimeout()));
        } catch (IOException e) {
            return Answer.failed("GET /v1/models failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Answer.failed("the probe was interrupted");
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
        client.shutdownNow();
    }

    HttpClient client() {
        return client;
    }

    ScheduledExecutorService timers() {
        return timers;
    }

    void ended(RemoteExchange exchange) {
        live.remove(exchange);
    }
}
