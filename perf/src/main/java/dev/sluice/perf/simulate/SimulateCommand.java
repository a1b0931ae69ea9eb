package dev.sluice.perf.simulate;

import dev.sluice.core.config.ConfigException;
import dev.sluice.core.spi.RegistryException;
import dev.sluice.perf.experiment.AgentExperiment;
import dev.sluice.perf.experiment.AgentWorkload;
import dev.sluice.perf.experiment.ChatWorkload;
import dev.sluice.perf.experiment.PrefixCacheExperiment;
import dev.sluice.perf.experiment.ReportTable;
import dev.sluice.transport.cli.DurationConverter;
import dev.sluice.transport.simulation.ClusterReport;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code sluice simulate}: experiments on a router and simulated fleet sharing a virtual clock. */
@Command(name = "simulate", mixinStandardHelpOptions = true,
    description = "Runs a workload through the admission router and a fleet of simulated engines on a virtual clock "
        + "(minutes in seconds, repeatable for a seed) and prints a comparison table; remote-engines runs in real "
        + "time over HTTP instead.",
    subcommands = {SimulateCommand.PrefixCache.class, SimulateCommand.Agents.class,
        SimulateQualityCommand.class, SimulateFairnessCommand.class, RemoteEnginesCommand.class})
final class SimulateCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(),
            "a workload is required: prefix-cache, agents, quality or remote-engines");
    }

    /** Options both experiments share. */
    static final class Common {
        @Option(names = "--workers", defaultValue = "8", paramLabel = "N",
            description = "Simulated workers (default: ${DEFAULT-VALUE}).")
        int workers;

        @Option(names = "--duration", defaultValue = "5m", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Load window: sessions start within it (default: ${DEFAULT-VALUE}).")
        Duration duration;

        @Option(names = "--seed", defaultValue = "42", description = "Workload, router and engine seed "
            + "(default: ${DEFAULT-VALUE}).")
        long seed;

        @Option(names = "--gpu-blocks", defaultValue = "1024", paramLabel = "BLOCKS",
            description = "KV blocks of 64 tokens per worker (default: ${DEFAULT-VALUE}).")
        long gpuBlocks;

        void validate(CommandLine commandLine) {
            if (workers < 1 || workers > 256) {
                throw new CommandLine.ParameterException(commandLine, "--workers must be 1..256, was " + workers);
            }
            if (duration.isNegative() || duration.isZero() || duration.toMinutes() > 120) {
                throw new CommandLine.ParameterException(commandLine, "--duration must be > 0 and <= 2h");
            }
            if (gpuBlocks < 64) {
                throw new CommandLine.ParameterException(commandLine, "--gpu-blocks must be >= 64, was " + gpuBlocks);
            }
        }
    }

    @Command(name = "prefix-cache", mixinStandardHelpOptions = true,
        description = "Chats sharing a few long system prompts, placed by router mode kv, round-robin and random on "
            + "the same workload and seed: compares the engines' prefix-cache hit rates.")
    static final class PrefixCache implements Callable<Integer> {
        @CommandLine.Mixin
        Common common = new Common();

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            common.validate(spec.commandLine());
            PrefixCacheExperiment.Settings defaults = PrefixCacheExperiment.Settings.defaults(common.workers,
                common.duration.toNanos(), common.seed);
            PrefixCacheExperiment.Settings settings = new PrefixCacheExperiment.Settings(common.workers,
                common.gpuBlocks, defaults.chats(), common.seed);
            ChatWorkload w = settings.chats();
            PrintStream out = System.out;
            out.printf("sluice simulate prefix-cache: %d workers x %d KV blocks of 64 tokens, %s window, seed %d%n",
                settings.workers(), settings.gpuBlocks(), common.duration, common.seed);
            out.printf("  chats %.1f/s sharing %d system prompts of %d tokens, %d-%d turns of ~%d new tokens,"
                    + " ~%d-token answers, think time %.0f s%n%n", w.sessionsPerSecond(), w.systemPrompts(),
                w.systemPromptTokens(), w.minTurns(), w.maxTurns(), w.userTokens(), w.answerTokens(),
                w.thinkNs() / 1e9);
            List<ClusterReport> reports = PrefixCacheExperiment.run(settings, PrefixCacheExperiment.MODES);
            ReportTable.print(reports, out);
            out.println();
            ReportTable.legend(out);
            return reports.stream().allMatch(ClusterReport::balanced) ? 0 : 1;
        }
    }

    @Command(name = "agents", mixinStandardHelpOptions = true,
        description = "Agent sessions (turns separated by tool calls, growing contexts) admitted by the pass-through "
            + "classifier with KV routing, then by thunderagent with its selector, on the same workload and seed.")
    static final class Agents implements Callable<Integer> {
        @CommandLine.Mixin
        Common common = new Common();

        @Option(names = "--sessions-per-second", paramLabel = "RATE",
            description = "Agent session arrivals per second (default: 0.5 per worker).")
        Double rate;

        @Option(names = "--tool-seconds", paramLabel = "SECONDS",
            description = "Mean tool-call time between turns (default: 5).")
        Double toolSeconds;

        @Option(names = "--tool-tokens", paramLabel = "N",
            description = "Mean tokens a tool returns, appended to the context each turn (default: 1000).")
        Integer toolTokens;

        @Option(names = "--router-policy-config", paramLabel = "FILE",
            description = "The ThunderAgent policy (default: the guide's, every parameter at its default).")
        Path policyFile;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws IOException {
            common.validate(spec.commandLine());
            AgentExperiment.Settings defaults = AgentExperiment.Settings.defaults(common.workers, common.gpuBlocks,
                common.duration.toNanos(), common.seed);
            AgentWorkload d = defaults.agents();
            AgentWorkload w = new AgentWorkload(d.durationNs(), rate == null ? d.sessionsPerSecond() : rate,
                d.systemPromptTokens(), d.taskTokens(), d.minTurns(), d.maxTurns(),
                toolTokens == null ? d.toolTokens() : toolTokens, d.answerTokens(),
                toolSeconds == null ? d.toolGapNs() : (long) (toolSeconds * 1e9), d.seed());
            AgentExperiment.Settings settings = new AgentExperiment.Settings(common.workers, common.gpuBlocks, w,
                common.seed, policyFile == null ? defaults.policyText() : Files.readString(policyFile,
                    StandardCharsets.UTF_8), policyFile == null ? defaults.policyName() : policyFile.toString());
            PrintStream out = System.out;
            out.printf("sluice simulate agents: %d workers x %d KV blocks of 64 tokens (%d tokens each), %s window,"
                + " seed %d%n", settings.workers(), settings.gpuBlocks(), settings.gpuBlocks() * 64, common.duration,
                common.seed);
            out.printf("  agent sessions %.2f/s: shared %d-token system prompt, ~%d-token task, %d-%d turns, ~%d-token"
                    + " answers, tool calls of mean %.0f s returning ~%d tokens; policy %s%n%n", w.sessionsPerSecond(),
                w.systemPromptTokens(), w.taskTokens(), w.minTurns(), w.maxTurns(), w.answerTokens(),
                w.toolGapNs() / 1e9, w.toolTokens(), settings.policyName());
            List<ClusterReport> reports;
            try {
                reports = AgentExperiment.run(settings);
            } catch (ConfigException | RegistryException e) {
                spec.commandLine().getErr().println("sluice: " + e.getMessage());
                return 2;
            }
            ReportTable.print(reports, out);
            out.println();
            ReportTable.legend(out);
            return reports.stream().allMatch(ClusterReport::balanced) ? 0 : 1;
        }
    }
}
