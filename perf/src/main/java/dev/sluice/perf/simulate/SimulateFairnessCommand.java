package dev.sluice.perf.simulate;

import dev.sluice.perf.experiment.FairnessExperiment;
import dev.sluice.perf.experiment.FairnessReport;
import dev.sluice.transport.cli.DurationConverter;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sluice simulate fairness}: tenant fairness inside one class on the simulated fleet. */
@Command(name = "fairness", mixinStandardHelpOptions = true,
    description = {"Tenant fairness inside one policy class on the simulated fleet (virtual clock): one heavy "
        + "tenant offering ten times each of three light tenants' load, with tenant_fairness none and vtc; per "
        + "tenant and run the tokens offered and served, the share served and the queue wait. Prints a Markdown "
        + "table (or JSON lines with --format json) and whether the targets held (exit 1 if not); the same seed "
        + "gives the same figures."})
final class SimulateFairnessCommand implements Callable<Integer> {
    @Option(names = "--workers", defaultValue = "4", paramLabel = "N",
        description = "Simulated workers (default: ${DEFAULT-VALUE}).")
    int workers;

    @Option(names = "--window", defaultValue = "60s", paramLabel = "DURATION", converter = DurationConverter.class,
        description = "Load window of each run; the first quarter is warm-up (default: ${DEFAULT-VALUE}).")
    Duration window;

    @Option(names = "--seed", defaultValue = "42", description = "Workload, router and engine seed "
        + "(default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--format", defaultValue = "table", paramLabel = "table|json",
        description = "table (Markdown, the default) or json (one object per tenant and run).")
    String format;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (workers < 1 || workers > 64) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--workers must be 1..64, was " + workers);
        }
        if (window.toSeconds() < 8 || window.toMinutes() > 30) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--window must be 8s..30m, was " + window);
        }
        if (!format.equals("table") && !format.equals("json")) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                "--format must be table or json, was \"" + format + "\"");
        }
        FairnessReport report = FairnessExperiment.run(new FairnessExperiment.Settings(workers, window.toNanos(),
            seed));
        if (format.equals("json")) {
            report.printJson(System.out);
        } else {
            report.printTable(System.out);
        }
        return report.held() ? 0 : 1;
    }
}
