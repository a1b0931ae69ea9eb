package dev.sluice.transport.cli;

import dev.sluice.core.api.DefaultSelectorSettings;
import dev.sluice.core.journal.JournalException;
import dev.sluice.core.router.RouterContext;
import dev.sluice.transport.demo.DemoFleet;
import dev.sluice.transport.demo.DemoSetup;
import dev.sluice.transport.demo.HttpDemo;
import dev.sluice.transport.demo.InProcessDemo;
import dev.sluice.transport.frontend.EngineSetup;
import dev.sluice.transport.frontend.FrontendSettings;
import dev.sluice.transport.frontend.JournalSetup;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.OptionalDouble;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code sluice demo}: the main job, over real HTTP on the embedded simulated fleet (or in-process). */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Starts the frontend on a free loopback port with a simulated fleet under KV pressure, sends a "
        + "mixed workload through real HTTP (chat on shared prompts, agent sessions, an overload burst, clients "
        + "that disconnect) for --duration, then prints a summary per policy class and writes an HTML report.",
        "--in-process runs the same kind of traffic through the admission core and the same simulated engines on a "
            + "virtual clock instead, without HTTP, in about a second."})
final class DemoCommand implements Callable<Integer> {
    @Option(names = "--duration", defaultValue = "60s", paramLabel = "DURATION", converter = DurationConverter.class,
        description = "How long to send traffic, e.g. 60s, 5m or PT90S (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--in-process", description = "Run the virtual-clock simulation without HTTP (fast).")
    boolean inProcess;

    @Option(names = "--sim-workers", defaultValue = "4", paramLabel = "N",
        description = "Simulated workers (default: ${DEFAULT-VALUE}); the workload scales with them.")
    int workers;

    @Option(names = "--seed", defaultValue = "42", description = "Workload seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--report", paramLabel = "FILE",
        description = "Where to write the HTML report (default: sluice-reports/demo-<timestamp>.html).")
    Path report;

    @CommandLine.Mixin
    PolicyOptions policyOptions = new PolicyOptions();

    @CommandLine.Mixin
    JournalOptions journalOptions = new JournalOptions();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        validate();
        PolicySource.Loaded policy;
        try {
            policy = policyOptions.load(DefaultSelectorSettings.DEFAULTS);
        } catch (PolicySource.StartupException e) {
            spec.commandLine().getErr().println("sluice: " + e.getMessage());
            return 2;
        }
        OptionalDouble threshold = policyOptions.threshold(spec.commandLine());
        try {
            return (inProcess ? inProcess(policy, threshold) : overHttp(policy, threshold)) ? 0 : 1;
        } catch (JournalException | IOException e) {
            spec.commandLine().getErr().println("sluice: " + e.getMessage());
            return 1;
        }
    }

    private boolean inProcess(PolicySource.Loaded policy, OptionalDouble threshold) throws JournalException {
        return InProcessDemo.run(new InProcessDemo.Settings(duration.toNanos(), workers, seed, policy.config(),
            policy.classifier(), policy.selector(), threshold, policyOptions.queuePolicy, policy.text(),
            journalOptions.context()), System.out);
    }

    private boolean overHttp(PolicySource.Loaded policy, OptionalDouble threshold)
        throws JournalException, IOException, InterruptedException {
        RouterContext router = FrontendAssembly.router(policy, InProcessDemo.MODEL, threshold,
            policyOptions.queuePolicy, "kv", InProcessDemo.sessionTurnClassifier(),
            policyOptions.classificationTimeout(spec.commandLine())).randomSeed(seed);
        String classifier = FrontendAssembly.classifierName(policy, InProcessDemo.DEMO_CLASSIFIER);
        JournalSetup journal = FrontendAssembly.journal(journalOptions.context(), policy, classifier, threshold,
            policyOptions.queuePolicy);
        FrontendSettings settings = DemoSetup.frontend(router, new EngineSetup.Simulated(DemoFleet.engine(), workers),
            journal);
        String description = policy.classifier() != null ? classifier + " (from the policy file)"
            : String.format("queue budget %d s from ingress; one turn per agent session, later turns park up to %d s",
                InProcessDemo.QUEUE_BUDGET_NS / 1_000_000_000L, InProcessDemo.PARK_BUDGET_NS / 1_000_000_000L);
        return HttpDemo.run(new HttpDemo.Settings(settings, duration, seed,
            report != null ? report : defaultReport(), policy.config().source(), description), System.out);
    }

    private void validate() {
        if (workers < 1 || workers > 1024) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                "--sim-workers must be between 1 and 1024, was " + workers);
        }
        if (duration.isNegative() || duration.isZero() || duration.compareTo(Duration.ofHours(1)) > 0) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                "--duration must be more than 0 and at most 1h, was " + duration);
        }
        journalOptions.validate(spec.commandLine());
        Duration timeout = policyOptions.classificationTimeout(spec.commandLine());
        if (inProcess && !timeout.isZero()) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                "--classification-timeout applies to the HTTP demo, not --in-process (its clock is virtual)");
        }
    }

    /** {@code ./sluice-reports/demo-<UTC timestamp>.html} (git-ignored). */
    static Path defaultReport() {
        return Path.of("sluice-reports", "demo-" + stamp() + ".html");
    }

    static String stamp() {
        return DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS").withZone(ZoneOffset.UTC).format(Instant.now());
    }
}
