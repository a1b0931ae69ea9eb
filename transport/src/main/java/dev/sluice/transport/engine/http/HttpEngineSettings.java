package dev.sluice.transport.engine.http;

import dev.sluice.transport.engine.EngineRuntimeConfig;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * How to reach one remote OpenAI-compatible engine.
 *
 * @param baseUrl           the engine's URL as given, e.g. {@code http://127.0.0.1:8001} or {@code .../v1}.
 * @param completionsUri    where requests go: {@code baseUrl} + {@code /v1/completions} (or + {@code /completions}
 *                          when {@code baseUrl} already ends in {@code /v1}).
 * @param model             the model name sent in each request.
 * @param connectTimeout    how long to wait for a TCP connection (HTTP/1.1, pooled by the client).
 * @param firstTokenTimeout how long to wait, from sending, for the first generated text.
 * @param streamIdleTimeout how long a stream may go without text once it has begun; {@link Duration#ZERO}: no limit.
 * @param runtimeConfig     the capacity the router books against: a generic OpenAI server does not publish it, so
 *                          it comes from the command line.
 */
public record HttpEngineSettings(String baseUrl, URI completionsUri, String model, Duration connectTimeout,
                                 Duration firstTokenTimeout, EngineRuntimeConfig runtimeConfig,
                                 Duration streamIdleTimeout) {
    public HttpEngineSettings {
        Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(completionsUri, "completionsUri");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(runtimeConfig, "runtimeConfig");
        requirePositive(connectTimeout, "connect timeout");
        requirePositive(firstTokenTimeout, "first-token timeout");
        Objects.requireNonNull(streamIdleTimeout, "streamIdleTimeout");
        if (streamIdleTimeout.isNegative()) {
            throw new IllegalArgumentException("the stream idle timeout must be >= 0 (0: none), was "
                + streamIdleTimeout);
        }
        if (runtimeConfig.dataParallelSize() != 1) {
            throw new IllegalArgumentException("a remote engine is one rank, dataParallelSize must be 1");
        }
    }

    /** The default {@link #streamIdleTimeout}. */
    public static final Duration DEFAULT_STREAM_IDLE_TIMEOUT = Duration.ofSeconds(60);

    /**
     * Settings for the engine at {@code url}, with the {@linkplain #DEFAULT_STREAM_IDLE_TIMEOUT default} stream idle
     * timeout.
     *
     * @throws IllegalArgumentException if {@code url} is not an absolute {@code http} or {@code https} URL with a
     *                                  host and without query or fragment; the message quotes it.
     */
    public static HttpEngineSettings of(String url, String model, Duration connectTimeout, Duration firstTokenTimeout,
                                        EngineRuntimeConfig runtimeConfig) {
        return new HttpEngineSettings(url, completionsUri(url), model, connectTimeout, firstTokenTimeout,
            runtimeConfig, DEFAULT_STREAM_IDLE_TIMEOUT);
    }

    /** The same settings with another stream idle timeout ({@link Duration#ZERO}: none). */
    public HttpEngineSettings withStreamIdleTimeout(Duration timeout) {
        return new HttpEngineSettings(baseUrl, completionsUri, model, connectTimeout, firstTokenTimeout, runtimeConfig,
            timeout);
    }

    /** Where health probes go: {@code GET /v1/models}, next to {@link #completionsUri}. */
    public URI modelsUri() {
        return completionsUri.resolve("models");
    }

    /** The {@code /v1/completions} URI of a base URL; see {@link #of}. */
    public static URI completionsUri(String url) {
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (URISyntaxException e) {
            throw invalid(url, "it is not a URL (" + e.getReason() + ")");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw invalid(url, "the scheme must be http or https");
        }
        if (uri.getHost() == null) {
            throw invalid(url, "it has no host");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
            throw invalid(url, "it must not have a query, fragment or user info");
        }
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        path += path.endsWith("/v1") ? "/completions" : "/v1/completions";
        return uri.resolve(path);
    }

    private static IllegalArgumentException invalid(String url, String why) {
        return new IllegalArgumentException("engine URL '" + url + "' is invalid: " + why
            + "; expected e.g. http://127.0.0.1:8001 or http://host:8001/v1");
    }

    private static void requirePositive(Duration duration, String what) {
        Objects.requireNonNull(duration, what);
        if (duration.isZero() || duration.isNegative()) {
            throw new IllegalArgumentException("the " + what + " must be positive, was " + duration);
        }
    }
}
