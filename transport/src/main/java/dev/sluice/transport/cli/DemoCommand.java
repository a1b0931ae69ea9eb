package dev.sluice.transport.cli;

import dev.sluice.transport.demo.InProcessDemo;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sluice demo}: the main job on the embedded simulated fleet. */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Runs a mixed workload (chat, agent sessions, an overload burst, clients that leave) through the "
        + "admission core on a simulated fleet and a virtual clock, and prints what happened.")
final class DemoCommand implements Callable<Integer> {
    @Option(names = "--duration", defaultValue = "60s", paramLabel = "DURATION",
        description = "Simulated traffic time, e.g. 60s, 5m or PT90S (default: ${DEFAULT-VALUE}).",
        converter = DurationConverter.class)
    Duration duration;

    @Option(names = "--sim-workers", defaultValue = "4", paramLabel = "N",
        description = "Simulated workers (default: ${DEFAULT-VALUE}).")
    int workers;

    @Option(names = "--seed", defaultValue = "42", description = "Workload seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--router-policy-config", paramLabel = "FILE",
        description = "Router-policy YAML (default: $DYN_ROUTER_POLICY_CONFIG, else the bundled demo policy).")
    java.nio.file.Path policyFile;

    @Option(names = "--router-queue-threshold", paramLabel = "FRAC",
        description = "Busy threshold (fraction of max_num_batched_tokens) for a model without a policy profile; "
            + "unset: such a model never queues.")
    Double queueThreshold;

    @Option(names = "--router-queue-policy", paramLabel = "POLICY", defaultValue = "fcfs",
        description = "Queue policy for a model without a policy profile: fcfs or wspt (default: ${DEFAULT-VALUE}).")
    dev.sluice.core.config.QueuePolicy queuePolicy;

    @Option(names = "--plugin-path", paramLabel = "DIR", description = "Directories of plugin jars to link.")
    java.util.List<java.nio.file.Path> pluginPath = new java.util.ArrayList<>();

    @Option(names = "--journal-dir", paramLabel = "DIR",
        description = "Journal every admission decision here (default: a new timestamped folder under "
            + "./sluice-journal/).")
    java.nio.file.Path journalDir;

    @Option(names = "--no-journal", description = "Do not journal.")
    boolean noJournal;

    @Option(names = "--journal-on-failure", paramLabel = "POLICY", defaultValue = "fail_closed",
        description = "When the journal cannot write: continue (admission goes on, lost records are counted) or "
            + "fail_closed (new arrivals are refused with 503 journal_unavailable; a journal that cannot open stops"
            + " the demo). Default: ${DEFAULT-VALUE}.")
    dev.sluice.core.journal.FailurePolicy journalFailure;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (workers < 1 || workers > 1024) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                "--sim-workers must be between 1 and 1024, was " + workers);
        }
        if (duration.isNegative() || duration.isZero() || duration.compareTo(Duration.ofHours(1)) > 0) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                "--duration must be more than 0 and at most 1h, was " + duration);
        }
        if (queueThreshold != null && (!Double.isFinite(queueThreshold) || queueThreshold < 0)) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                "--router-queue-threshold must be finite and non-negative, was " + queueThreshold);
        }
        PolicySource.Loaded policy;
        try {
            policy = PolicySource.load(policyFile, pluginPath);
        } catch (PolicySource.StartupException e) {
            spec.commandLine().getErr().println("sluice: " + e.getMessage());
            return 2;
        }
        if (noJournal && journalDir != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--no-journal and --journal-dir exclude "
                + "each other");
        }
        dev.sluice.core.journal.JournalContext journal = noJournal ? null
            : new dev.sluice.core.journal.JournalContext(journalDir != null ? journalDir : defaultJournalDir())
                .failurePolicy(journalFailure);
        try {
            boolean balanced = InProcessDemo.run(new InProcessDemo.Settings(duration.toNanos(), workers, seed,
                policy.config(), policy.classifier(), policy.selector(), queueThreshold == null
                    ? java.util.OptionalDouble.empty()
                    : java.util.OptionalDouble.of(queueThreshold), queuePolicy, policy.text(), journal), System.out);
            return balanced ? 0 : 1;
        } catch (dev.sluice.core.journal.JournalException e) {
            spec.commandLine().getErr().println("sluice: " + e.getMessage());
            return 1;
        }
    }

    /** {@code ./sluice-journal/<UTC timestamp>}, a new folder per run (git-ignored). */
    static java.nio.file.Path defaultJournalDir() {
        String stamp = java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS")
            .withZone(java.time.ZoneOffset.UTC).format(java.time.Instant.now());
        return java.nio.file.Path.of("sluice-journal", stamp);
    }
}
