package dev.sluice.perf.simulate;

import dev.sluice.perf.experiment.ChatWorkload;
import dev.sluice.perf.experiment.PrefixCacheExperiment;
import dev.sluice.perf.experiment.ReportTable;
import dev.sluice.transport.cli.DurationConverter;
import dev.sluice.transport.simulation.ClusterReport;
import java.io.PrintStream;
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
    subcommands = {SimulateCommand.PrefixCache.class, AgentsCommand.class,
        SimulateQualityCommand.class, SimulateFairnessCommand.class, SimulateFlowCommand.Preemption.class,
        SimulateFlowCommand.Reload.class, RemoteEnginesCommand.class})
final class SimulateCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(),
            "a workload is required: prefix-cache, agents, quality, fairness, preemption, reload or remote-engines");
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
}
