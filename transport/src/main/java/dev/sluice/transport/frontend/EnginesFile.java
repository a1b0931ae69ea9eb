package dev.sluice.transport.frontend;

import dev.sluice.core.config.ConfigException;
import dev.sluice.core.config.YamlMap;
import dev.sluice.core.config.YamlValue;
import dev.sluice.transport.engine.http.HttpEngineSettings;
import dev.sluice.transport.engine.telemetry.HttpMetricsSource;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The engines file ({@code serve --engines FILE}): the models one {@code serve} serves and, per model, its engines.
 * Read strictly, like the router-policy file: an unknown key, a wrong type or a bad address stops with the file,
 * line, column and key path. Relative tokenizer directories are relative to the file. Immutable.
 *
 * <pre>
 * models:
 *   llama-3-8b:                            # the name clients ask for
 *     tokenizer: models/llama-3-8b         # optional: tokenizer.json and tokenizer_config.json
 *     engine_model: meta-llama/Llama-3-8B  # optional: the name sent to the engines (default: the model's name)
 *     block_size: 16                       # optional: tokens per KV block (default: --block-size)
 *     engines:
 *       - url: http://10.0.0.1:8000
 *         kv_events: tcp://10.0.0.1:5557   # optional: the engine's ZMQ KV-event publisher
 *         kv_replay: tcp://10.0.0.1:5558   # optional: its replay socket
 *         metrics: true                    # optional: scrape URL/metrics (default), false, or another URL
 *         total_kv_blocks: 16384           # optional: overrides what the engine publishes
 *         max_num_batched_tokens: 8192     # optional
 * </pre>
 *
 * @param models the models by name, in the file's order.
 */
public record EnginesFile(Map<String, Model> models) {
    private static final List<String> ROOT_KEYS = List.of("models");
    private static final List<String> MODEL_KEYS = List.of("tokenizer", "engine_model", "block_size", "engines");
    private static final List<String> ENGINE_KEYS = List.of("url", "kv_events", "kv_replay", "metrics",
        "total_kv_blocks", "max_num_batched_tokens");

    public EnginesFile {
        models = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(models));
    }

    /**
     * One model and its engines.
     *
     * @param name        the name clients ask for.
     * @param tokenizer   its tokenizer directory, if given.
     * @param engineModel the name sent to its engines.
     * @param blockSize   tokens per KV block, if given.
     * @param engines     at least one, each URL once.
     */
    public record Model(String name, Optional<Path> tokenizer, String engineModel, OptionalInt blockSize,
                        List<Engine> engines) {
        public Model {
            engines = List.copyOf(engines);
        }
    }

    /**
     * One engine of a model.
     *
     * @param url                 its OpenAI-compatible base URL; it names the engine across reloads.
     * @param kvEvents            its KV-event publisher ({@code tcp://host:port}), if it publishes events.
     * @param kvReplay            its replay socket, if it has one.
     * @param metrics             the Prometheus endpoint to scrape, or empty to scrape nothing.
     * @param totalKvBlocks       KV capacity in blocks, overriding what the engine publishes, if given.
     * @param maxNumBatchedTokens the token budget of one forward pass, if given.
     */
    public record Engine(URI url, Optional<String> kvEvents, Optional<String> kvReplay, Optional<URI> metrics,
                         OptionalLong totalKvBlocks, OptionalLong maxNumBatchedTokens) {
    }

    /** Reads and validates {@code file}. */
    public static EnginesFile read(Path file) throws ConfigException {
        String text;
        try {
            text = YamlValue.readFile(file);
        } catch (IOException e) {
            throw new ConfigException(file.toString(), "", 0, 0, "failed to read engines file " + file + ": " + e);
        }
        return parse(text, file.toString(), file.toAbsolutePath().getParent());
    }

    /** Parses a document; {@code source} names it in errors, {@code base} resolves relative tokenizer paths. */
    public static EnginesFile parse(String yaml, String source, Path base) throws ConfigException {
        YamlValue root = YamlValue.read(yaml, source, "engines file");
        YamlMap document = root.map().allowOnly(ROOT_KEYS);
        YamlValue models = document.require("models");
        YamlMap byName = models.map();
        if (byName.isEmpty()) {
            throw models.error("expected at least one model");
        }
        Map<String, Model> read = new LinkedHashMap<>();
        for (String name : byName.keys()) {
            read.put(name, model(name, byName.require(name), base));
        }
        return new EnginesFile(read);
    }

    private static Model model(String name, YamlValue value, Path base) throws ConfigException {
        YamlMap model = value.map().allowOnly(MODEL_KEYS);
        Optional<Path> tokenizer = Optional.empty();
        if (model.get("tokenizer") != null) {
            Path dir = Path.of(model.get("tokenizer").string());
            tokenizer = Optional.of(dir.isAbsolute() || base == null ? dir : base.resolve(dir).normalize());
        }
        String engineModel = model.get("engine_model") != null ? model.get("engine_model").string() : name;
        OptionalInt blockSize = OptionalInt.empty();
        if (model.get("block_size") != null) {
            blockSize = OptionalInt.of((int) positive(model.get("block_size"), 1 << 16));
        }
        YamlValue enginesValue = model.require("engines");
        List<YamlValue> list = enginesValue.list();
        if (list.isEmpty()) {
            throw enginesValue.error("expected at least one engine");
        }
        List<Engine> engines = new ArrayList<>(list.size());
        List<URI> seen = new ArrayList<>();
        for (YamlValue engineValue : list) {
            Engine engine = engine(engineValue);
            if (seen.contains(engine.url())) {
                throw engineValue.error("engine " + engine.url() + " is listed twice for model " + name);
            }
            seen.add(engine.url());
            engines.add(engine);
        }
        return new Model(name, tokenizer, engineModel, blockSize, engines);
    }

    private static Engine engine(YamlValue value) throws ConfigException {
        YamlMap engine = value.map().allowOnly(ENGINE_KEYS);
        YamlValue urlValue = engine.require("url");
        URI url = httpUrl(urlValue);
        Optional<String> kvEvents = zmqEndpoint(engine.get("kv_events"));
        Optional<String> kvReplay = zmqEndpoint(engine.get("kv_replay"));
        if (kvReplay.isPresent() && kvEvents.isEmpty()) {
            throw engine.get("kv_replay").error("a replay socket needs kv_events too");
        }
        URI completions;
        try {
            completions = HttpEngineSettings.completionsUri(url.toString());
        } catch (IllegalArgumentException e) {
            throw urlValue.error(e.getMessage());
        }
        Optional<URI> metrics = Optional.of(HttpMetricsSource.besideApi(completions));
        YamlValue metricsValue = engine.get("metrics");
        if (metricsValue != null) {
            metrics = switch (metricsValue.string()) {
                case "true" -> metrics;
                case "false" -> Optional.empty();
                default -> Optional.of(httpUrl(metricsValue));
            };
        }
        OptionalLong blocks = engine.get("total_kv_blocks") == null ? OptionalLong.empty()
            : OptionalLong.of(positive(engine.get("total_kv_blocks"), Long.MAX_VALUE));
        OptionalLong batched = engine.get("max_num_batched_tokens") == null ? OptionalLong.empty()
            : OptionalLong.of(positive(engine.get("max_num_batched_tokens"), Long.MAX_VALUE));
        return new Engine(url, kvEvents, kvReplay, metrics, blocks, batched);
    }

    private static long positive(YamlValue value, long max) throws ConfigException {
        long n = value.nonNegativeLong();
        if (n < 1 || n > max) {
            throw value.error("expected an integer from 1 to " + max + ", found " + n);
        }
        return n;
    }

    private static URI httpUrl(YamlValue value) throws ConfigException {
        String text = value.string();
        try {
            URI uri = new URI(text);
            if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
                throw value.error("expected an http:// or https:// URL with a host, found \"" + text + "\"");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw value.error("expected an http:// or https:// URL, found \"" + text + "\": " + e.getReason());
        }
    }

    private static Optional<String> zmqEndpoint(YamlValue value) throws ConfigException {
        if (value == null) {
            return Optional.empty();
        }
        String text = Objects.requireNonNull(value.string());
        if (!text.matches("tcp://[^:/\\s]+:\\d{1,5}")) {
            throw value.error("expected a ZMQ endpoint such as tcp://10.0.0.1:5557, found \"" + text + "\"");
        }
        return Optional.of(text);
    }
}
