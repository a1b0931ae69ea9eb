package dev.sluice.perf.simulate;

import dev.sluice.perf.experiment.FairnessExperiment;
import dev.sluice.perf.experiment.FairnessReport;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sluice simulate fairness}: tenant fairness inside one class on the simulated fleet. */
@Command(name = "fairness", mixinStandardHelpOptions = true,
    description = {"Tenant fairness inside one policy class on the simulated fleet (virtual clock): one heavy "
        + "tenant offering ten times each of three light tenants' load, with tenant_fairness none, vtc and vtc "
        + "preempting over-served tenants; per tenant and run the tokens offered and served, the share served, the "
        + "queue wait, and the requests preempted and their tokens lost. Prints a Markdown "
        + "table (or JSON lines with --format json) and whether the targets held (exit 1 if not); the same seed "
        + "gives the same figures."})
final class SimulateFairnessCommand implements Callable<Integer> {
    @CommandLine.Mixin
    FlowRunOptions run;

    @Option(names = "--format", defaultValue = "table", paramLabel = "table|json",
        description = "table (Markdown, the default) or json (one object per tenant and run).")
    String format;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        FairnessExperiment.Settings settings = run.settings(spec.commandLine());
        if (!format.equals("table") && !format.equals("json")) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                "--format must be table or json, was \"" + format + "\"");
        }
        FairnessReport report = FairnessExperiment.run(settings);
        if (format.equals("json")) {
            report.printJson(System.out);
        } else {
            report.printTable(System.out);
        }
        return report.held() ? 0 : 1;
    }
}
