package dev.sluice.transport.engine.telemetry;

import dev.sluice.transport.metrics.ScrapeFailure;
import java.io.ByteArrayOutputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * An engine's {@code GET /metrics} with the JDK {@link HttpClient} (HTTP/1.1, no redirects, no compression asked):
 * the timeout to connect, and twice it for the whole answer, which must be 2xx and at most {@value #MAX_BYTES}
 * bytes. {@link #fetch} blocks the calling thread (an interrupt cancels the exchange); thread-safe.
 */
public final class HttpMetricsSource implements MetricsSource {
    /** vLLM's exposition with every histogram is a few hundred KiB; far more is not an engine's metrics. */
    static final int MAX_BYTES = 16 << 20;

    private final URI uri;
    private final Duration timeout;
    private final HttpClient client;

    public HttpMetricsSource(URI uri, Duration timeout) {
        this.uri = Objects.requireNonNull(uri, "uri");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout)
            .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /**
     * Where an OpenAI-compatible engine serves its metrics: {@code /metrics} at the root its {@code /v1} API hangs
     * from, as vLLM and SGLang do ({@code http://h:8000/v1/completions} gives {@code http://h:8000/metrics}, a
     * prefix before {@code /v1} is kept).
     */
    public static URI besideApi(URI completionsUri) {
        return completionsUri.resolve("../metrics");
    }

    @Override
    public String fetch() throws ScrapeException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(timeout)
            .header("accept", "text/plain;version=0.0.4").GET().build();
        CompletableFuture<HttpResponse<byte[]>> exchange = client.sendAsync(request, info -> new LimitedBody());
        HttpResponse<byte[]> response;
        try {
            // The request's timeout ends at the answer's headers; this bounds its body too.
            response = exchange.get(2 * timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            exchange.cancel(true);
            throw e;
        } catch (TimeoutException e) {
            exchange.cancel(true);
            throw new ScrapeException(ScrapeFailure.UNREACHABLE, "GET " + uri + " was not answered whole within "
                + timeout.multipliedBy(2));
        } catch (ExecutionException e) {
            throw failure(uri, timeout, e.getCause());
        }
        if (response.statusCode() / 100 != 2) {
            throw new ScrapeException(ScrapeFailure.HTTP_STATUS, "GET " + uri + " answered HTTP "
                + response.statusCode());
        }
        return new String(response.body(), StandardCharsets.UTF_8);
    }

    /** What a failed exchange with {@code uri} says, by its cause (the JDK client's exception, unwrapped once). */
    static ScrapeException failure(URI uri, Duration timeout, Throwable cause) {
        if (cause instanceof ScrapeException scrape) {
            return scrape;
        }
        if (cause instanceof HttpConnectTimeoutException) {
            return new ScrapeException(ScrapeFailure.UNREACHABLE, "cannot connect to " + uri + " within " + timeout);
        }
        if (cause instanceof ConnectException) {
            // The JDK client also fails a host name with no address this way, the lookup's failure as the cause.
            boolean unresolved = cause.getCause() instanceof UnresolvedAddressException
                || cause.getCause() instanceof UnknownHostException;
            return new ScrapeException(ScrapeFailure.UNREACHABLE, "cannot connect to " + uri
                + (unresolved ? " (its host name has no address)" : " (connection refused)"));
        }
        if (cause instanceof HttpTimeoutException) {
            return new ScrapeException(ScrapeFailure.UNREACHABLE, "GET " + uri + " got no answer within " + timeout);
        }
        return new ScrapeException(ScrapeFailure.UNREACHABLE, "GET " + uri + " failed: " + cause);
    }

    /** The answer's bytes, at most {@link #MAX_BYTES}: past that, the exchange is cancelled and fails. */
    private final class LimitedBody implements HttpResponse.BodySubscriber<byte[]> {
        private final CompletableFuture<byte[]> result = new CompletableFuture<>();
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private Flow.Subscription subscription;

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            for (ByteBuffer buffer : buffers) {
                if (bytes.size() + buffer.remaining() > MAX_BYTES) {
                    subscription.cancel();
                    result.completeExceptionally(new ScrapeException(ScrapeFailure.UNPARSABLE, "GET " + uri
                        + " answered more than " + MAX_BYTES + " bytes"));
                    return;
                }
                byte[] chunk = new byte[buffer.remaining()];
                buffer.get(chunk);
                bytes.write(chunk, 0, chunk.length);
            }
        }

        @Override
        public void onError(Throwable error) {
            result.completeExceptionally(error);
        }

        @Override
        public void onComplete() {
            result.complete(bytes.toByteArray());
        }

        @Override
        public CompletionStage<byte[]> getBody() {
            return result;
        }
    }

    @Override
    public String address() {
        return uri.toString();
    }

    @Override
    public void close() {
        client.shutdownNow();
    }
}
