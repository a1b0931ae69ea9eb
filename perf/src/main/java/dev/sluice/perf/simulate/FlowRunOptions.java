package dev.sluice.perf.simulate;

import dev.sluice.perf.experiment.FairnessExperiment;
import dev.sluice.transport.cli.DurationConverter;
import java.time.Duration;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** The options every flow-control simulation takes (fairness, preemption, reload): fleet size, window and seed. */
final class FlowRunOptions {
    @Option(names = "--workers", defaultValue = "4", paramLabel = "N",
        description = "Simulated workers (default: ${DEFAULT-VALUE}).")
    int workers;

    @Option(names = "--window", defaultValue = "60s", paramLabel = "DURATION", converter = DurationConverter.class,
        description = "Load window of each run; the first quarter is warm-up (default: ${DEFAULT-VALUE}).")
    Duration window;

    @Option(names = "--seed", defaultValue = "42", description = "Workload, router and engine seed "
        + "(default: ${DEFAULT-VALUE}).")
    long seed;

    /** The run's settings; a usage error naming the option when one is out of range. */
    FairnessExperiment.Settings settings(CommandLine commandLine) {
        if (workers < 1 || workers > 64) {
            throw new CommandLine.ParameterException(commandLine, "--workers must be 1..64, was " + workers);
        }
        if (window.toSeconds() < 8 || window.toMinutes() > 30) {
            throw new CommandLine.ParameterException(commandLine,
                "--window must be 8s..30m, was " + window.toMillis() + " ms");
        }
        return new FairnessExperiment.Settings(workers, window.toNanos(), seed);
    }
}
