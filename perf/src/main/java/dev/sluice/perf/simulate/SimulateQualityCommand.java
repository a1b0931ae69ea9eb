package dev.sluice.perf.simulate;

import dev.sluice.perf.experiment.QualityReport;
import dev.sluice.perf.experiment.QualityTables;
import dev.sluice.perf.experiment.SchedulingQualityExperiment;
import dev.sluice.transport.cli.DurationConverter;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code sluice simulate quality}: the scheduling-quality experiment on the simulated fleet, printed as Markdown. */
@Command(name = "quality", mixinStandardHelpOptions = true,
    description = {"Scheduling quality of the policy queues on the simulated fleet: the fleet's capacity, "
        + "DRR service shares against the quanta (3:2:1), deadline misses under overload, and goodput (TTFT within "
        + "the objective) under a ramp from 50%% to 200%% of capacity with and without the policy queues. Prints "
        + "Markdown; the same seed gives the same tables."})
final class SimulateQualityCommand implements Callable<Integer> {
    @Option(names = "--workers", defaultValue = "4", paramLabel = "N",
        description = "Simulated workers (default: ${DEFAULT-VALUE}).")
    int workers;

    @Option(names = "--window", defaultValue = "120s", paramLabel = "DURATION", converter = DurationConverter.class,
        description = "Load window of the capacity, DRR and deadline runs; the first quarter is warm-up, which "
            + "must outlast a request's life at saturation (about 10 s here), so use 60s or more for a sound "
            + "capacity (default: ${DEFAULT-VALUE}).")
    Duration window;

    @Option(names = "--step", defaultValue = "60s", paramLabel = "DURATION", converter = DurationConverter.class,
        description = "Length of each ramp step (default: ${DEFAULT-VALUE}).")
    Duration step;

    @Option(names = "--seed", defaultValue = "42", description = "Workload, router and engine seed "
        + "(default: ${DEFAULT-VALUE}).")
    long seed;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (workers < 1 || workers > 64) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--workers must be 1..64, was " + workers);
        }
        if (window.toSeconds() < 4 || window.toMinutes() > 30 || step.toSeconds() < 1 || step.toMinutes() > 30) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                "--window must be 4s..30m and --step 1s..30m");
        }
        QualityReport report = SchedulingQualityExperiment.run(SchedulingQualityExperiment.Settings.defaults(workers,
            window.toNanos(), step.toNanos(), seed));
        QualityTables.print(report, System.out);
        return report.balanced() ? 0 : 1;
    }
}
