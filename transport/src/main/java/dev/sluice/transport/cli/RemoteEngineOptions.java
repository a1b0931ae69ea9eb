package dev.sluice.transport.cli;

import dev.sluice.transport.engine.EngineRuntimeConfig;
import dev.sluice.transport.engine.http.HttpEngineSettings;
import dev.sluice.transport.engine.kv.KvEventSource;
import dev.sluice.transport.engine.telemetry.EngineMetricsSettings;
import dev.sluice.transport.frontend.EngineSetup;
import dev.sluice.transport.frontend.EnginesFile;
import dev.sluice.transport.frontend.RemoteEngine;
import dev.sluice.transport.frontend.WorkerHealthSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/** {@code serve}'s options for remote OpenAI-compatible engines. */
final class RemoteEngineOptions {
    /** A remote engine's sequence limit is not used by the router; the config record needs one. */
    private static final int MAX_NUM_SEQS = 256;
    /** Each remote engine's KV capacity when neither the engine's metrics nor the operator give one. */
    static final long DEFAULT_TOTAL_KV_BLOCKS = 16_384;

    @Option(names = "--engine-url", paramLabel = "URL",
        description = {"A remote OpenAI-compatible engine, e.g. http://127.0.0.1:8001 or http://host:8001/v1 "
            + "(repeatable: worker ids 0..N-1 in order). Requests go to its /v1/completions with the prompt as text "
            + "(as token ids with --tokenizer) and stream: true. Without it, the embedded simulated fleet "
            + "(--sim-workers) serves.",
            "Without --engine-kv-events the router places them by load, not by cached prefix."})
    List<String> urls = new ArrayList<>();

    @Option(names = "--engine-kv-events", paramLabel = "ENDPOINT[,replay=ENDPOINT][,topic=T]",
        description = {"Where the --engine-url of the same position publishes its KV-cache events over ZMQ (vLLM's "
            + "and SGLang's --kv-events-config endpoint), e.g. tcp://10.0.0.5:5557 or tcp://10.0.0.5:5557,"
            + "replay=tcp://10.0.0.5:5558 (repeatable; 'none' for an engine without; give none at all or one per "
            + "--engine-url). With replay=, batches lost in a gap are asked for again; without it, or when the "
            + "engine no longer has them, the router forgets that worker's cache and rebuilds it from new events.",
            "The engine's block size must be --block-size (vLLM's default is 16)."})
    List<String> kvEvents = new ArrayList<>();

    @Option(names = "--engine-model", paramLabel = "NAME",
        description = "The model name sent to remote engines (default: the --model-name served).")
    String model;

    @Option(names = "--engine-connect-timeout", defaultValue = "5s", paramLabel = "DURATION",
        converter = DurationConverter.class,
        description = "How long to wait for a connection to a remote engine; then 503 (default: ${DEFAULT-VALUE}).")
    Duration connectTimeout;

    @Option(names = "--engine-first-token-timeout", defaultValue = "60s", paramLabel = "DURATION",
        converter = DurationConverter.class,
        description = "How long a remote engine may take to send the first token; then 504 (default: "
            + "${DEFAULT-VALUE}).")
    Duration firstTokenTimeout;

    @Option(names = "--engine-stream-idle-timeout", defaultValue = "60s", paramLabel = "DURATION",
        converter = DurationConverter.class,
        description = "How long a remote engine's stream may go without text once it has begun; a stream that "
            + "freezes longer ends with an error event (engine_timeout) and the request is aborted. 0: no limit "
            + "(default: ${DEFAULT-VALUE}).")
    Duration streamIdleTimeout;

    @Option(names = "--engine-total-kv-blocks", paramLabel = "BLOCKS",
        description = "KV capacity of each remote engine in --block-size blocks. Given, it wins over what an engine "
            + "publishes; else the engine's /metrics says it (vLLM's cache_config_info, SGLang's "
            + "max_total_num_tokens), and an engine that does not gets " + DEFAULT_TOTAL_KV_BLOCKS + ".")
    Long totalKvBlocks;

    @Option(names = "--engine-metrics-interval", defaultValue = "1s", paramLabel = "DURATION",
        converter = DurationConverter.class,
        description = {"How often each remote engine's /metrics (beside its /v1) is read for its own load (requests "
            + "running and waiting, KV cache in use, all clients') and KV capacity; the router combines it with its "
            + "own bookings, which count at once. 0: never (default: ${DEFAULT-VALUE}).",
            "A failing scrape is logged and counted; after 3 in a row the engine's last report stops counting."})
    Duration metricsInterval;

    @Option(names = "--engine-max-num-batched-tokens", defaultValue = "8192", paramLabel = "TOKENS",
        description = "Token budget of one forward pass of each remote engine (default: ${DEFAULT-VALUE}).")
    long maxNumBatchedTokens;

    @Option(names = "--engine-failure-threshold", defaultValue = "3", paramLabel = "N",
        description = "Failures in a row after which a remote engine is marked unhealthy: connection refused or "
            + "lost, 5xx, 429, no first token in time, a malformed stream (not a 4xx rejection of the request, not a "
            + "404 for a model it does not serve, which is a configuration error, not a client that left). It leaves "
            + "the router, requests running on it end as they will, and it is probed with GET /v1/models until it "
            + "answers; then it rejoins. 0: never (default: ${DEFAULT-VALUE}).")
    int failureThreshold;

    @Option(names = "--engine-retry-backoff", defaultValue = "1s..30s", paramLabel = "FIRST..MAX",
        converter = RetryBackoff.Converter.class,
        description = "When to probe an unhealthy remote engine: FIRST after it turned unhealthy, then at doubling "
            + "intervals up to MAX; one duration probes at a fixed interval (default: ${DEFAULT-VALUE}).")
    RetryBackoff retryBackoff;

    boolean remote() {
        return !urls.isEmpty();
    }

    /**
     * Checks the remote-engine options, also when no {@code --engine-url} is given (so a typo is not ignored).
     *
     * @throws IllegalArgumentException naming the option and its value.
     */
    void validate() {
        if (connectTimeout.isZero() || connectTimeout.isNegative() || firstTokenTimeout.isZero()
            || firstTokenTimeout.isNegative()) {
            throw new IllegalArgumentException("--engine-connect-timeout and --engine-first-token-timeout must be "
                + "positive, were " + connectTimeout + " and " + firstTokenTimeout);
        }
        if ((totalKvBlocks != null && totalKvBlocks < 1) || maxNumBatchedTokens < 1) {
            throw new IllegalArgumentException("--engine-total-kv-blocks and --engine-max-num-batched-tokens must "
                + "be >= 1, were " + totalKvBlocks + " and " + maxNumBatchedTokens);
        }
        if (streamIdleTimeout.isNegative()) {
            throw new IllegalArgumentException("--engine-stream-idle-timeout must be >= 0 (0: no limit), was "
                + streamIdleTimeout);
        }
        if (metricsInterval.isNegative()) {
            throw new IllegalArgumentException("--engine-metrics-interval must be >= 0 (0: never), was "
                + metricsInterval);
        }
        if (model != null && model.isBlank()) {
            throw new IllegalArgumentException("--engine-model must not be blank");
        }
        if (failureThreshold < 0) {
            throw new IllegalArgumentException("--engine-failure-threshold must be >= 0 (0: never mark an engine "
                + "unhealthy), was " + failureThreshold);
        }
        Duration first = retryBackoff.first();
        Duration max = retryBackoff.max();
        if (first.isZero() || first.isNegative() || max.compareTo(first) < 0) {
            throw new IllegalArgumentException("--engine-retry-backoff must be positive with FIRST at most MAX, e.g. "
                + "1s..30s, was " + retryBackoff);
        }
        kvEventSources();
    }

    /** Worker id to KV-event source, from {@code --engine-kv-events}; throws naming the bad value. */
    private Map<Integer, KvEventSource> kvEventSources() {
        if (!kvEvents.isEmpty() && kvEvents.size() != urls.size()) {
            throw new IllegalArgumentException("--engine-kv-events is given " + kvEvents.size() + " time(s) for "
                + urls.size() + " --engine-url(s): give it once per engine, in the same order ('none' for an engine "
                + "without), or not at all");
        }
        Map<Integer, KvEventSource> sources = new HashMap<>();
        for (int worker = 0; worker < kvEvents.size(); worker++) {
            String spec = kvEvents.get(worker).trim();
            if (!spec.equals("none")) {
                try {
                    sources.put(worker, KvEventSource.parse(spec));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("--engine-kv-events " + spec + ": " + e.getMessage());
                }
            }
        }
        return sources;
    }

    /**
     * The remote engines' setup.
     *
     * @throws IllegalArgumentException naming the bad option or URL.
     */
    EngineSetup.Remote setup(String servedModel, int blockSize) {
        validate();
        EngineRuntimeConfig config = new EngineRuntimeConfig(totalKvBlocks != null ? totalKvBlocks
            : DEFAULT_TOTAL_KV_BLOCKS, blockSize, maxNumBatchedTokens, MAX_NUM_SEQS, 1);
        List<HttpEngineSettings> engines = new ArrayList<>(urls.size());
        for (String url : urls) {
            engines.add(HttpEngineSettings.of(url, model != null ? model : servedModel, connectTimeout,
                firstTokenTimeout, config).withStreamIdleTimeout(streamIdleTimeout));
        }
        return new EngineSetup.Remote(engines, health(), metrics(), kvEventSources());
    }
    /**
     * The engines of one model of an engines file, with these options as the defaults of what the file leaves out
     * (timeouts, capacity, batch budget); the file's {@code total_kv_blocks} overrides what the engine publishes.
     *
     * @param blockSize the model's block size.
     * @throws IllegalArgumentException naming the bad URL or endpoint.
     */
    List<RemoteEngine> remoteEngines(EnginesFile.Model model, int blockSize) {
        List<RemoteEngine> engines = new ArrayList<>(model.engines().size());
        for (EnginesFile.Engine engine : model.engines()) {
            long blocks = engine.totalKvBlocks().orElse(totalKvBlocks != null ? totalKvBlocks
                : DEFAULT_TOTAL_KV_BLOCKS);
            long batched = engine.maxNumBatchedTokens().orElse(maxNumBatchedTokens);
            EngineRuntimeConfig config = new EngineRuntimeConfig(blocks, blockSize, batched, MAX_NUM_SEQS, 1);
            HttpEngineSettings http = HttpEngineSettings.of(engine.url().toString(), model.engineModel(),
                connectTimeout, firstTokenTimeout, config).withStreamIdleTimeout(streamIdleTimeout);
            boolean capacityFromEngine = engine.totalKvBlocks().isEmpty() && totalKvBlocks == null;
            Optional<KvEventSource> events = engine.kvEvents().map(endpoint -> new KvEventSource(endpoint,
                engine.kvReplay().orElse(null)));
            engines.add(new RemoteEngine(http, events, engine.metrics(), capacityFromEngine));
        }
        return engines;
    }

    /** The setup of a model from an engines file: its engines, with these options' health and metrics settings. */
    EngineSetup.Remote setup(EnginesFile.Model model, int blockSize) {
        validate();
        return new EngineSetup.Remote(health(), metrics(), blockSize, remoteEngines(model, blockSize));
    }

    private WorkerHealthSettings health() {
        return new WorkerHealthSettings(failureThreshold, retryBackoff.first(), retryBackoff.max());
    }

    private EngineMetricsSettings metrics() {
        return new EngineMetricsSettings(metricsInterval, connectTimeout, totalKvBlocks == null);
    }
}
