package dev.sluice.transport.cli;

import dev.sluice.core.api.DefaultSelectorSettings;
import dev.sluice.core.api.OverloadStatus;
import dev.sluice.core.config.ConfigException;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.journal.JournalContext;
import dev.sluice.core.journal.JournalException;
import dev.sluice.core.router.RouterContext;
import dev.sluice.transport.cluster.ReplicaCluster;
import dev.sluice.transport.frontend.ConnectionLimits;
import dev.sluice.transport.frontend.DynamoHeaders;
import dev.sluice.transport.frontend.EngineSetup;
import dev.sluice.transport.frontend.EnginesFile;
import dev.sluice.transport.frontend.EnginesFileWatcher;
import dev.sluice.transport.frontend.Frontend;
import dev.sluice.transport.frontend.FrontendSettings;
import dev.sluice.transport.frontend.JournalSetup;
import dev.sluice.transport.frontend.LargeBodyBudget;
import dev.sluice.transport.frontend.RouterModes;
import dev.sluice.transport.frontend.ServedModel;
import dev.sluice.transport.frontend.TrustedSources;
import dev.sluice.transport.tokenize.BoundedPromptEncoder;
import dev.sluice.transport.tokenize.PromptEncoder;
import dev.sluice.transport.tokenize.hf.TokenizerRegistry;
import io.helidon.http.HeaderNames;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code sluice serve}: the OpenAI-compatible frontend with admission control, on the embedded simulated fleet or
 * in front of remote OpenAI-compatible engines ({@code --engine-url}).
 */
@Command(name = "serve", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Serves an OpenAI-compatible API (POST /v1/chat/completions, POST /v1/completions, GET /v1/models, "
        + "/health, /live, /metrics) with sluice's admission control in front of an embedded fleet of simulated "
        + "engines, or of remote OpenAI-compatible engines given with --engine-url.",
        "Prints 'sluice serving MODEL on http://HOST:PORT' when ready. On SIGTERM or Ctrl-C it answers waiting "
            + "requests 503, lets dispatched ones finish within --grace-period, closes the journal and exits."})
final class ServeCommand implements Callable<Integer> {
    /** How often the engines file is looked at for changes. */
    private static final Duration RELOAD_INTERVAL = Duration.ofSeconds(1);

    @Option(names = "--http-host", defaultValue = "127.0.0.1", paramLabel = "HOST",
        description = "Address to bind (default: ${DEFAULT-VALUE}, loopback only).")
    String host;

    @Option(names = "--http-port", defaultValue = "8000", paramLabel = "PORT",
        description = "Port (0: any free port; default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--model-name", defaultValue = "sluice-sim", paramLabel = "NAME",
        description = "The model served (default: ${DEFAULT-VALUE}).")
    String modelName;

    @Option(names = "--router-mode", defaultValue = "kv", paramLabel = "MODE",
        description = "kv (KV-cache-aware selection), round-robin or random (default: ${DEFAULT-VALUE}).")
    String routerMode;

    @Option(names = "--kv-overlap-score-weight", defaultValue = "1.0", paramLabel = "W",
        description = "Weight of cached prefix blocks in the built-in selector's cost (default: ${DEFAULT-VALUE}).")
    double overlapWeight;

    @Option(names = "--router-temperature", defaultValue = "0.0", paramLabel = "T",
        description = "0 picks the cheapest worker; above 0 samples by cost (default: ${DEFAULT-VALUE}).")
    double temperature;

    @Option(names = "--sim-workers", defaultValue = "4", paramLabel = "N",
        description = "Simulated workers (default: ${DEFAULT-VALUE}).")
    int simWorkers;

    @CommandLine.Mixin
    MockerOptions mocker = new MockerOptions();

    @CommandLine.Mixin
    RemoteEngineOptions remote = new RemoteEngineOptions();

    @CommandLine.Mixin
    TokenizerOptions tokenizer = new TokenizerOptions();

    @Option(names = "--engines", paramLabel = "FILE",
        description = {"Serve the models of an engines file (YAML: per model its tokenizer directory, the name its "
            + "engines serve, block size, and engines with url, kv_events, kv_replay, metrics, total_kv_blocks, "
            + "max_num_batched_tokens; see the README), each with its own router under the policy's models: "
            + "profile. The file is re-read when it changes: engines join and leave without a restart.",
            "Not with --engine-url, --engine-kv-events, --engine-model, --tokenizer or --model-name; the other "
                + "--engine-* options are the defaults of what the file leaves out."})
    Path enginesFile;

    @Option(names = "--default-max-tokens", defaultValue = "64", paramLabel = "N",
        description = "Tokens generated when a request names none; 0 makes max_tokens required "
            + "(default: ${DEFAULT-VALUE}).")
    int defaultMaxTokens;

    @Option(names = "--max-body-bytes", defaultValue = "4194304", paramLabel = "BYTES",
        description = "Larger request bodies answer 413 (default: ${DEFAULT-VALUE}).")
    long maxBodyBytes;

    @Option(names = "--max-prompt-tokens", defaultValue = "131072", paramLabel = "N",
        description = "Prompts with more tokens answer 400, and are tokenized no further than that; 0 for no limit "
            + "(default: ${DEFAULT-VALUE}).")
    int maxPromptTokens;

    @Option(names = "--large-body-bytes", defaultValue = "65536", paramLabel = "BYTES",
        description = "A request body over this (or chunked, of no declared length) is large: it is read, parsed "
            + "and tokenized only in one of --large-body-concurrency turns, waited for at most 2 s, or answers the "
            + "overload status, too_many_large_bodies (default: ${DEFAULT-VALUE}).")
    long largeBodyBytes;

    @Option(names = "--large-body-concurrency", paramLabel = "N",
        description = "Large request bodies handled at once (default: half the cores, at least 1).")
    Integer largeBodyConcurrency;

    @Option(names = "--tenant-header", paramLabel = "NAME",
        description = "The request header naming the tenant (for per-tenant plugins such as token-rate-limit).")
    String tenantHeader;

    @Option(names = "--trusted-source", paramLabel = "CIDR",
        description = "Honour priority, policy-class, session and tenant headers only from these client address"
            + " ranges (repeatable, e.g. 10.0.0.0/8); others have them ignored and counted. Default: every client.")
    List<String> trustedSources = new ArrayList<>();

    @Option(names = "--grace-period", defaultValue = "30s", paramLabel = "DURATION",
        converter = DurationConverter.class,
        description = "How long dispatched requests may finish at shutdown (default: ${DEFAULT-VALUE}).")
    Duration gracePeriod;

    /** How the scheduler thread waits for work. */
    enum SchedulerIdle { WAIT, SPIN, COMBINE }

    @Option(names = "--scheduler-idle", defaultValue = "combine", paramLabel = "MODE",
        description = "How each model's scheduler thread waits for work: combine (an idle scheduler's cycle runs on "
            + "the submitting thread: no wake-up, no idle CPU; listeners then run on that thread) or wait (spin 50 "
            + "us, yield 200 us, then sleep until woken; only a wake-up from sleep costs a few microseconds, an idle "
            + "model no CPU) or spin (busy-spin: the lowest latency on a core of its own, and that whole core per "
            + "model, even when idle). Default: ${DEFAULT-VALUE}.")
    SchedulerIdle schedulerIdle;

    @Option(names = "--watch-config",
        description = "Reload the router-policy file when it changes (its directory is watched, so an editor's "
            + "save by rename counts), as on SIGHUP: validated in full, swapped on each model's scheduler between "
            + "two duty cycles; an invalid file is refused and the old policy serves on.")
    boolean watchConfig;

    @CommandLine.Mixin
    ConnectionOptions connections = new ConnectionOptions();

    @CommandLine.Mixin
    PolicyOptions policyOptions = new PolicyOptions();

    @CommandLine.Mixin
    JournalOptions journalOptions = new JournalOptions();

    @CommandLine.Mixin
    ReplicaOptions replicas = new ReplicaOptions();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Whether SIGHUP reloads the policy file (false when it cannot be handled here, as under nohup). */
    private boolean reloadsOnHangUp;

    @Override
    public Integer call() throws InterruptedException {
        validate();
        ConnectionLimits limits = connections.limits(spec.commandLine());
        FrontendSettings.Io io = connections.io(spec.commandLine());
        EnginesFile file = null;
        if (enginesFile != null) {
            try {
                file = EnginesFile.read(enginesFile);
            } catch (ConfigException e) {
                spec.commandLine().getErr().println("sluice: " + e.getMessage());
                return 2;
            }
        }
        PolicySource.Loaded policy;
        try {
            policy = policyOptions.load(new DefaultSelectorSettings(overlapWeight, temperature));
        } catch (PolicySource.StartupException e) {
            spec.commandLine().getErr().println("sluice: " + e.getMessage());
            return 2;
        }
        if (watchConfig && policy.path() == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--watch-config needs a policy file: "
                + "--router-policy-config FILE or $" + PolicySource.ENV);
        }
        TokenizerRegistry tokenizers = new TokenizerRegistry();
        List<ServedModel> models = new ArrayList<>();
        try {
            if (file == null) {
                EngineSetup engines = remote.remote() ? remote.setup(modelName, mocker.blockSize)
                    : new EngineSetup.Simulated(mocker.engine(), simWorkers);
                models.add(served(modelName, engines, tokenizer.encoder(tokenizers), policy, null));
            } else {
                for (EnginesFile.Model model : file.models().values()) {
                    EngineSetup engines = remote.setup(model, model.blockSize().orElse(mocker.blockSize));
                    models.add(served(model.name(), engines, TokenizerOptions.encoder(tokenizers,
                        model.tokenizer().orElse(null), "model " + model.name() + ": tokenizer"), policy,
                        file.models().size() == 1 ? null : model.name()));
                }
            }
        } catch (PolicySource.StartupException e) {
            tokenizers.close();
            spec.commandLine().getErr().println("sluice: " + e.getMessage());
            return 2;
        } catch (IllegalArgumentException e) {
            tokenizers.close();
            throw new CommandLine.ParameterException(spec.commandLine(), (enginesFile == null ? ""
                : "--engines " + enginesFile + ": ") + e.getMessage());
        }
        FrontendSettings settings;
        try {
            settings = new FrontendSettings(host, port, maxBodyBytes, defaultMaxTokens,
                OverloadStatus.fromEnvironment(), tenantHeader == null ? null : HeaderNames.create(tenantHeader),
                gracePeriod, TrustedSources.of(trustedSources), models, limits, new LargeBodyBudget(largeBodyBytes,
                largeBodyConcurrency == null ? LargeBodyBudget.defaultPermits() : largeBodyConcurrency,
                LargeBodyBudget.WAIT)).io(io);
        } catch (IllegalArgumentException e) {
            tokenizers.close();
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        return run(settings, tokenizers, policy);
    }

    /**
     * One model with its router under the policy's profile for it, and its journal.
     *
     * @param journalName the journal's sub-directory when several models are journaled, else {@code null}.
     */
    private ServedModel served(String name, EngineSetup engines, PromptEncoder prompts, PolicySource.Loaded policy,
                               String journalName) {
        OptionalDouble threshold = policyOptions.threshold(spec.commandLine());
        QueuePolicy queuePolicy = policyOptions.queuePolicy;
        RouterContext router = FrontendAssembly.router(policy, name, threshold, queuePolicy, routerMode, null,
            policyOptions.classificationTimeout(spec.commandLine()));
        // The option's names are the router's modes.
        router.schedulerIdle(RouterContext.SchedulerIdle.valueOf(schedulerIdle.name()));
        JournalContext context = journalOptions.context();
        if (context != null && journalName != null) {
            context = FrontendAssembly.journalOf(context, journalName);
        }
        JournalSetup journal = FrontendAssembly.journal(context, policy,
            FrontendAssembly.classifierName(policy, "default"), threshold, queuePolicy);
        return new ServedModel(name, router, engines, journal, BoundedPromptEncoder.of(prompts, maxPromptTokens));
    }

    private int run(FrontendSettings settings, TokenizerRegistry tokenizers, PolicySource.Loaded policy)
        throws InterruptedException {
        ReplicaCluster cluster = replicas.join();
        Runnable release = () -> {
            tokenizers.close();
            ReplicaOptions.close(cluster);
        };
        Frontend frontend;
        try {
            frontend = Frontend.start(settings, cluster);
        } catch (Frontend.ListenFailure e) {
            release.run();
            spec.commandLine().getErr().println("sluice: --http-host " + host + " --http-port " + port + ": "
                + e.getMessage() + "\nTry 'sluice serve --help' for more information.");
            return 2;
        } catch (JournalException | RuntimeException e) {
            release.run();
            spec.commandLine().getErr().println("sluice: cannot start: " + e.getMessage());
            return 1;
        }
        EnginesFileWatcher watcher = enginesFile == null ? null : EnginesFileWatcher.start(enginesFile, frontend,
            (model, setup) -> remote.remoteEngines(model, setup.blockSize()), RELOAD_INTERVAL);
        PolicyFileWatcher policyWatch;
        try {
            policyWatch = policyReloads(frontend, policy);
        } catch (java.io.IOException e) {
            if (watcher != null) {
                watcher.close();
            }
            frontend.close();
            release.run();
            spec.commandLine().getErr().println("sluice: --watch-config: " + e.getMessage());
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (policyWatch != null) {
                policyWatch.close();
            }
            if (watcher != null) {
                watcher.close();
            }
            frontend.close();
            release.run();
            stopped.countDown();
        }, "sluice-serve-shutdown"));
        PrintWriter out = spec.commandLine().getOut();
        List<String> names = new ArrayList<>();
        List<String> parts = new ArrayList<>();
        for (ServedModel model : settings.models()) {
            names.add(model.name());
            parts.add((settings.models().size() == 1 ? "" : model.name() + ": ") + model.engines().describe() + ", "
                + model.prompts().describe() + (model.journal() != null ? ", journal "
                + model.journal().context().directory() : ""));
        }
        out.println("sluice serving " + String.join(", ", names) + " on http://" + host + ":" + frontend.port()
            + " (" + String.join("; ", parts) + (watcher != null ? "; watching " + enginesFile : "")
            + ReplicaOptions.describe(cluster)
            + (policy.path() == null ? "" : "; policy " + policy.path() + (reloadsOnHangUp ? " reloads on SIGHUP"
                + (policyWatch != null ? " and when it changes" : "") : policyWatch != null ? " reloads when it changes"
                : " does not reload (SIGHUP cannot be handled)")) + ")");
        out.flush();
        stopped.await();
        return 0;
    }

    /** SIGHUP (and with --watch-config a change of the file) reloads a policy read from a file; else nothing. */
    private PolicyFileWatcher policyReloads(Frontend frontend, PolicySource.Loaded policy)
        throws java.io.IOException {
        if (policy.path() == null) {
            return null;
        }
        PolicyReloader reloader = new PolicyReloader(policy, frontend, policyOptions.threshold(spec.commandLine()),
            policyOptions.queuePolicy, new DefaultSelectorSettings(overlapWeight, temperature));
        reloadsOnHangUp = HangUpSignal.install(() -> reloader.reload("SIGHUP"));
        return watchConfig ? PolicyFileWatcher.start(policy.path(), () -> reloader.reload("file change")) : null;
    }

    private void validate() {
        policyOptions.threshold(spec.commandLine());
        policyOptions.classificationTimeout(spec.commandLine());
        journalOptions.validate(spec.commandLine());
        replicas.validate(spec.commandLine());
        try {
            RouterModes.parse(routerMode);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        try {
            remote.validate();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        if (enginesFile != null) {
            CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
            for (String option : List.of("--engine-url", "--engine-kv-events", "--engine-model", "--tokenizer",
                "--model-name")) {
                if (parsed.hasMatchedOption(option)) {
                    throw new CommandLine.ParameterException(spec.commandLine(), "--engines and " + option
                        + " cannot be given together: the engines file names each model's engines and tokenizer");
                }
            }
        }
        require(port >= 0 && port <= 65_535, "--http-port must be 0..65535 (0: any free port), was " + port);
        require(largeBodyBytes >= 0, "--large-body-bytes must be >= 0, was " + largeBodyBytes);
        require(largeBodyConcurrency == null || largeBodyConcurrency >= 1,
            "--large-body-concurrency must be at least 1, was " + largeBodyConcurrency);
        require(maxPromptTokens >= 0, "--max-prompt-tokens must be >= 0 (0: no limit), was " + maxPromptTokens);
        require(maxBodyBytes >= 1, "--max-body-bytes must be >= 1, was " + maxBodyBytes);
        require(defaultMaxTokens >= 0,
            "--default-max-tokens must be >= 0 (0: max_tokens required), was " + defaultMaxTokens);
        require(!gracePeriod.isNegative(), "--grace-period must not be negative, was " + gracePeriod);
        nonNegative("--kv-overlap-score-weight", overlapWeight);
        nonNegative("--router-temperature", temperature);
        try {
            mocker.engine();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        if (tenantHeader != null) {
            try {
                DynamoHeaders.checkTenantHeader(tenantHeader);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
        }
        require(simWorkers >= 1 && simWorkers <= 1024, "--sim-workers must be between 1 and 1024, was " + simWorkers);
    }

    private void require(boolean valid, String problem) {
        if (!valid) {
            throw new CommandLine.ParameterException(spec.commandLine(), problem);
        }
    }

    private void nonNegative(String option, double value) {
        if (!Double.isFinite(value) || value < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                option + " must be a finite number >= 0, was " + value);
        }
    }
}
