package dev.sluice.perf.simulate;

import dev.sluice.core.journal.JournalException;
import dev.sluice.perf.experiment.RemoteEnginesExperiment;
import dev.sluice.transport.cli.DurationConverter;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code sluice simulate remote-engines}: the demo's workload on the embedded fleet and on mock engines. */
@Command(name = "remote-engines", mixinStandardHelpOptions = true,
    description = {"The demo's workload (sluice demo's generator and seed) through the frontend in real time over "
        + "loopback HTTP, first on the embedded simulated fleet, then on as many mock engines behind --engine-url "
        + "with --engine-kv-events (the router learns their caches from vLLM KV events over ZMQ), under the same "
        + "router. Prints both fleets' prefix-cache hit rates (tokens found cached over tokens looked up, from the "
        + "engines' counters) and the gap. Takes twice the duration and a little more."})
final class RemoteEnginesCommand implements Callable<Integer> {
    /**
     * Helidon logs every server's start and stop at INFO through java.util.logging (ten servers here); held because
     * the logging framework keeps only weak references to loggers.
     */
    private static final java.util.logging.Logger HELIDON = java.util.logging.Logger.getLogger("io.helidon");

    @Option(names = "--workers", defaultValue = "4", paramLabel = "N",
        description = "Workers of each fleet; the workload scales with them (default: ${DEFAULT-VALUE}).")
    int workers;

    @Option(names = "--duration", defaultValue = "60s", paramLabel = "DURATION", converter = DurationConverter.class,
        description = "The workload's window, as sluice demo's (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--seed", defaultValue = "42", description = "Workload and router seed (default: "
        + "${DEFAULT-VALUE}).")
    long seed;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException, JournalException {
        if (workers < 1 || workers > 32) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--workers must be 1..32, was " + workers);
        }
        if (duration.toSeconds() < 5 || duration.toMinutes() > 30) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--duration must be 5s..30m, was "
                + duration);
        }
        HELIDON.setLevel(java.util.logging.Level.WARNING);
        PrintStream out = System.out;
        RemoteEnginesExperiment.Settings settings = new RemoteEnginesExperiment.Settings(workers, duration, seed);
        out.printf("sluice simulate remote-engines: %d workers per fleet, the demo's engines, %s window, seed %d%n",
            workers, duration, seed);
        RemoteEnginesExperiment.Result result = RemoteEnginesExperiment.run(settings);
        out.println("  workload: " + result.workload());
        out.println();
        RemoteEnginesExperiment.print(result, out);
        return result.embedded().clients().drained() && result.remote().clients().drained() ? 0 : 1;
    }
}
