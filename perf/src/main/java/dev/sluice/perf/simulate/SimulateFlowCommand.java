package dev.sluice.perf.simulate;

import dev.sluice.perf.experiment.FairnessExperiment;
import dev.sluice.perf.experiment.FlowReport;
import dev.sluice.perf.experiment.PreemptionExperiment;
import dev.sluice.perf.experiment.ReloadExperiment;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code sluice simulate preemption} and {@code sluice simulate reload}: flow control on the simulated fleet. */
abstract class SimulateFlowCommand implements Callable<Integer> {
    @CommandLine.Mixin
    FlowRunOptions run;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private final Function<FairnessExperiment.Settings, FlowReport> experiment;

    SimulateFlowCommand(Function<FairnessExperiment.Settings, FlowReport> experiment) {
        this.experiment = experiment;
    }

    @Override
    public Integer call() {
        FlowReport report = experiment.apply(run.settings(spec.commandLine()));
        report.printTable(System.out);
        return report.held() ? 0 : 1;
    }

    @Command(name = "preemption", mixinStandardHelpOptions = true,
        description = {"Preempting sheddable work on the simulated fleet (virtual clock): interactive requests (10 %% "
            + "of capacity) beside bulk ones (120 %%), alone, with bulk not preemptible and preemptible (a preempted "
            + "client sends its request again after the Retry-After); per run and family the queue wait and TTFT, "
            + "preemptions and retries. Prints a Markdown table and whether the targets held (exit 1 if not); the "
            + "same seed gives the same figures."})
    static final class Preemption extends SimulateFlowCommand {
        Preemption() {
            super(PreemptionExperiment::run);
        }
    }

    @Command(name = "reload", mixinStandardHelpOptions = true,
        description = {"Policy reloads under load on the simulated fleet (virtual clock): the preemption "
            + "experiment's classes at 110 %% of capacity, without reloads and with 20 reloads between two policies; "
            + "per run and family the requests completed and lost, the queue wait and TTFT, and the swap pause (wall "
            + "time of the duty cycle that applied a reload). Prints a Markdown table and whether the targets held "
            + "(exit 1 if not)."})
    static final class Reload extends SimulateFlowCommand {
        Reload() {
            super(ReloadExperiment::run);
        }
    }
}
