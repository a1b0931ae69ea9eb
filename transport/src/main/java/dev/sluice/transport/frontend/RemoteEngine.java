package dev.sluice.transport.frontend;

import dev.sluice.transport.engine.http.HttpEngineSettings;
import dev.sluice.transport.engine.kv.KvEventSource;
import dev.sluice.transport.engine.telemetry.HttpMetricsSource;
import java.net.URI;
import java.util.Objects;
import java.util.Optional;

/**
 * One remote engine of a model as the frontend runs it: how to reach it, where it publishes KV events, and where
 * its Prometheus metrics are read. Its base URL names it: an engines file that lists the URL again, with the same
 * settings, means the same engine. Immutable.
 *
 * @param http               its OpenAI-compatible server and the model name it is sent.
 * @param kvEvents           its ZMQ KV-event publisher, if it has one.
 * @param metrics            the {@code /metrics} to scrape, if any (scraping also needs a non-zero interval).
 * @param capacityFromEngine whether the KV capacity the engine publishes replaces the configured one (false when
 *                           the operator gave the capacity, which then wins).
 */
public record RemoteEngine(HttpEngineSettings http, Optional<KvEventSource> kvEvents, Optional<URI> metrics,
                           boolean capacityFromEngine) {
    public RemoteEngine {
        Objects.requireNonNull(http, "http");
        Objects.requireNonNull(kvEvents, "kvEvents");
        Objects.requireNonNull(metrics, "metrics");
    }

    /** An engine without KV events whose metrics, if read, are beside its API ({@code BASE/metrics}). */
    public static RemoteEngine of(HttpEngineSettings http, boolean capacityFromEngine) {
        return new RemoteEngine(http, Optional.empty(), Optional.of(HttpMetricsSource.besideApi(
            http.completionsUri())), capacityFromEngine);
    }

    /** The same engine with KV events from {@code source}. */
    public RemoteEngine withKvEvents(KvEventSource source) {
        return new RemoteEngine(http, Optional.of(source), metrics, capacityFromEngine);
    }

    /** Its base URL, which names it. */
    public String url() {
        return http.baseUrl();
    }
}
