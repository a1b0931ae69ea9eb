package dev.sluice.perf.simulate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.config.ConfigException;
import dev.sluice.core.spi.RegistryException;
import dev.sluice.perf.experiment.AgentExperiment;
import dev.sluice.perf.experiment.ClosedLoopAgentExperiment;
import dev.sluice.perf.experiment.ClosedLoopAgentExperiment.Policy;
import dev.sluice.perf.experiment.ClosedLoopAgentExperiment.Run;
import dev.sluice.perf.experiment.CodingAgentWorkload;
import dev.sluice.transport.cli.DurationConverter;
import dev.sluice.transport.engine.sim.CostModel;
import dev.sluice.transport.engine.sim.SchedulerMode;
import dev.sluice.transport.engine.sim.SimEngineContext;
import dev.sluice.transport.simulation.ClosedLoopReport;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sluice simulate agents}: the closed-loop agent experiment, a sweep over concurrent programs. */
@Command(name = "agents", mixinStandardHelpOptions = true,
    description = "Closed loop: N coding-agent programs (20-60 turns, growing contexts, tool calls between turns) run "
        + "at once, each replaced when it ends, under pass-through and under each ThunderAgent policy, for every N; "
        + "prints steps per minute, prefix-hit rate, re-prefill and preemptions per (policy, N), with the run's R.")
final class AgentsCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Option(names = "--parallel-programs", split = ",", paramLabel = "N[,N...]", defaultValue = "10,20,40,80",
        description = "Concurrent programs, one run per value (default: ${DEFAULT-VALUE}).")
    List<Integer> parallel;

    @Option(names = "--workers", defaultValue = "1", paramLabel = "N",
        description = "Simulated workers (default: ${DEFAULT-VALUE}).")
    int workers;

    @Option(names = "--gpu-blocks", defaultValue = "16384", paramLabel = "BLOCKS",
        description = "KV blocks of 64 tokens per worker (default: ${DEFAULT-VALUE}, about a million tokens).")
    long gpuBlocks;

    @Option(names = "--scheduler", defaultValue = "vllm-v1", paramLabel = "MODE",
        description = "Engine scheduler: vllm-v1 or mocker (Dynamo's mocker; default: ${DEFAULT-VALUE}).")
    String scheduler;

    @Option(names = "--cost", defaultValue = "attention", paramLabel = "MODEL",
        description = "Forward-pass cost: attention (prefill attends over the cached context) or mocker "
            + "(default: ${DEFAULT-VALUE}).")
    String cost;

    @Option(names = "--warmup", defaultValue = "10m", converter = DurationConverter.class, paramLabel = "DURATION",
        description = "Warm-up before the window, not counted (default: ${DEFAULT-VALUE}).")
    Duration warmup;

    @Option(names = "--window", defaultValue = "30m", converter = DurationConverter.class, paramLabel = "DURATION",
        description = "Measured window of simulated time (default: ${DEFAULT-VALUE}).")
    Duration window;

    @Option(names = "--heavy-tailed-tools", description = "Tool times with a heavy tail (lognormal shape 1.2).")
    boolean heavyTailed;

    @Option(names = "--router-policy-config", paramLabel = "FILE",
        description = "A ThunderAgent policy to compare, repeatable (default: the bundled thunderagent.yaml, "
            + "Dynamo's defaults, thunderagent-paper.yaml, mode: paper, and thunderagent-fit.yaml, Dynamo's defaults "
            + "with resume_packing: first_fit and pause_marking: enough).")
    List<Path> policyFiles;

    @Option(names = "--pass-through-only",
        description = "Run pass-through alone: the check that the simulated engine thrashes like vLLM.")
    boolean passThroughOnly;

    @Option(names = "--format", defaultValue = "table", paramLabel = "FORMAT",
        description = "table, or json: one object per (policy, N) per line (default: ${DEFAULT-VALUE}).")
    String format;

    @Option(names = "--seed", defaultValue = "42", description = "Workload, router and engine seed "
        + "(default: ${DEFAULT-VALUE}).")
    long seed;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        ClosedLoopAgentExperiment.Settings settings = settings();
        boolean json = format.equals("json");
        PrintStream out = System.out;
        if (!json) {
            out.printf("sluice simulate agents: closed loop, %d worker(s) x %d KV blocks of 64 tokens, scheduler %s,"
                    + " cost %s, warm-up %s, window %s, seed %d%n", workers, gpuBlocks, scheduler, cost, warmup,
                window, seed);
            out.printf("  programs: 20-60 turns, 2-4k shared system prompt, 1-3k tool tokens and 200-500 output "
                + "tokens per turn, tool times lognormal median 2 s%s%n%n", heavyTailed ? " (heavy-tailed)" : "");
            out.printf("%-22s %5s %6s %9s %6s %6s %12s %8s %9s %9s %9s %5s%n", "policy", "N", "load", "steps/min",
                "ratio", "hit %", "re-prefilled", "preempt", "turn p50", "turn p99", "park p99", "R");
        }
        List<Run> done = new ArrayList<>();
        try {
            ClosedLoopAgentExperiment.run(settings, run -> {
                done.add(run);
                out.println(json ? json(run, ratio(done, run)) : row(run, ratio(done, run)));
                out.flush();
            });
        } catch (ConfigException | RegistryException e) {
            spec.commandLine().getErr().println("sluice: " + e.getMessage());
            return 2;
        }
        if (!json) {
            out.println();
            out.println("load = N x mean context / KV tokens; ratio = steps/min over pass-through's at the same N;"
                + " re-prefilled = prompt tokens computed beyond the essential ones; times in seconds; R = prefill"
                + " ms/token x KV tokens per worker / (output tokens x decode step ms).");
        }
        return done.stream().allMatch(r -> r.report().balanced()) ? 0 : 1;
    }

    private ClosedLoopAgentExperiment.Settings settings() throws IOException {
        CommandLine cl = spec.commandLine();
        if (parallel.isEmpty() || parallel.stream().anyMatch(n -> n < 1 || n > 10_000)) {
            throw new CommandLine.ParameterException(cl, "--parallel-programs must be 1..10000 each, was " + parallel);
        }
        if (workers < 1 || workers > 64) {
            throw new CommandLine.ParameterException(cl, "--workers must be 1..64, was " + workers);
        }
        if (gpuBlocks < 4096 || gpuBlocks > 1 << 24) {
            throw new CommandLine.ParameterException(cl, "--gpu-blocks must be 4096..16777216 (a program's context "
                + "reaches about 3,000 blocks), was " + gpuBlocks);
        }
        SchedulerMode mode = switch (scheduler) {
            case "vllm-v1" -> SchedulerMode.VLLM_V1;
            case "mocker" -> SchedulerMode.MOCKER;
            default -> throw new CommandLine.ParameterException(cl, "--scheduler must be vllm-v1 or mocker, was "
                + scheduler);
        };
        CostModel costModel = switch (cost) {
            case "attention" -> CostModel.ATTENTION;
            case "mocker" -> CostModel.MOCKER;
            default -> throw new CommandLine.ParameterException(cl, "--cost must be attention or mocker, was " + cost);
        };
        if (!format.equals("table") && !format.equals("json")) {
            throw new CommandLine.ParameterException(cl, "--format must be table or json, was " + format);
        }
        if (warmup.isNegative() || window.isNegative() || window.isZero() || warmup.plus(window).toHours() > 24) {
            throw new CommandLine.ParameterException(cl, "--warmup must be >= 0, --window > 0, together <= 24h");
        }
        List<Policy> policies = new ArrayList<>();
        policies.add(Policy.PASS_THROUGH);
        if (passThroughOnly) {
            if (policyFiles != null && !policyFiles.isEmpty()) {
                throw new CommandLine.ParameterException(cl, "--pass-through-only runs no --router-policy-config");
            }
        } else if (policyFiles == null || policyFiles.isEmpty()) {
            policies.add(new Policy("thunderagent", AgentExperiment.bundledPolicy()));
            policies.add(new Policy("thunderagent-paper",
                AgentExperiment.bundled(AgentExperiment.BUNDLED_PAPER_POLICY)));
            policies.add(new Policy("thunderagent-fit", AgentExperiment.bundled(AgentExperiment.BUNDLED_FIT_POLICY)));
        } else {
            for (Path file : policyFiles) {
                policies.add(new Policy(file.getFileName().toString(), Files.readString(file,
                    StandardCharsets.UTF_8)));
            }
        }
        SimEngineContext engine = new SimEngineContext().numGpuBlocks(gpuBlocks).scheduler(mode).costModel(costModel);
        return new ClosedLoopAgentExperiment.Settings(workers, engine, CodingAgentWorkload.defaults(heavyTailed, seed),
            parallel, warmup.toNanos(), window.toNanos(), policies, seed);
    }

    /** Steps per minute over pass-through's at the same N (pass-through runs first). */
    private static double ratio(List<Run> done, Run run) {
        for (Run other : done) {
            if (other.report().parallel() == run.report().parallel()
                && other.report().label().equals(Policy.PASS_THROUGH.name())) {
                double base = other.report().stepsPerMinute();
                return base == 0 ? 0.0 : run.report().stepsPerMinute() / base;
            }
        }
        return 0.0;
    }

    private static String row(Run run, double ratio) {
        ClosedLoopReport r = run.report();
        return String.format("%-22s %5d %6.2f %9.1f %6.2f %6.1f %12d %8d %9.1f %9.1f %9.1f %5.2f", r.label(),
            r.parallel(), run.loadRatio(), r.stepsPerMinute(), ratio, 100 * r.prefill().prefixHitRate(),
            r.rePrefilledTokens(), r.prefill().preemptions(), r.turnP50Ms() / 1000, r.turnP99Ms() / 1000,
            r.parkedP99Ms() / 1000, run.r());
    }

    static String json(Run run, double ratio) {
        ClosedLoopReport r = run.report();
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("policy", r.label());
        o.put("parallel_programs", r.parallel());
        o.put("load_ratio", run.loadRatio());
        o.put("steps_per_min", r.stepsPerMinute());
        o.put("ratio_to_pass_through", ratio);
        o.put("programs_per_min", r.programsPerMinute());
        o.put("output_tokens_per_s", r.outputTokensPerSecond());
        o.put("prefix_hit_rate", r.prefill().prefixHitRate());
        o.put("prefill_hit_rate", r.prefill().hitRate());
        o.put("prefilled_tokens", r.prefill().computedTokens());
        o.put("reprefilled_tokens", r.rePrefilledTokens());
        o.put("preemptions", r.prefill().preemptions());
        o.put("mean_context_tokens", r.meanContextTokens());
        o.put("turn_latency_p50_ms", r.turnP50Ms());
        o.put("turn_latency_p99_ms", r.turnP99Ms());
        o.put("parked_p50_ms", r.parkedP50Ms());
        o.put("parked_p99_ms", r.parkedP99Ms());
        o.put("engine_ttft_p50_ms", r.ttftP50Ms());
        o.put("engine_ttft_p99_ms", r.ttftP99Ms());
        o.put("program_latency_p99_ms", r.programP99Ms());
        o.put("window_s", r.windowNs() / 1e9);
        o.put("r", run.r());
        o.put("balanced", r.balanced());
        try {
            return JSON.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
