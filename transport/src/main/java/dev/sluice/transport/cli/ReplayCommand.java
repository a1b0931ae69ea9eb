package dev.sluice.transport.cli;

import dev.sluice.core.audit.JournalRun;
import dev.sluice.core.config.ConfigException;
import dev.sluice.core.config.RouterPolicyConfig;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.journal.JournalRecord;
import dev.sluice.core.replay.DecisionComparison;
import dev.sluice.core.replay.ReplayVerifier;
import dev.sluice.core.spi.RegistryException;
import dev.sluice.core.spi.RequestClassifier;
import dev.sluice.core.spi.RequestClassifierFactory;
import dev.sluice.transport.demo.InProcessDemo;
import dev.sluice.transport.demo.WhatIfFleet;
import dev.sluice.transport.demo.WhatIfReplay;
import dev.sluice.transport.simulation.Arrival;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/** {@code sluice replay DIR --verify | --router-policy-config FILE}. */
@Command(name = "replay", mixinStandardHelpOptions = true,
    description = {"Replays a journal on a virtual clock.",
        "--verify: re-feeds the recorded inputs through a fresh router with the recorded configuration (the "
            + "classifier's decisions are taken from the recording) and compares every decision.",
        "--router-policy-config FILE: runs the recorded arrivals on the simulated fleet under the recorded and the "
            + "given configuration and prints per class what changed.",
        "Exit codes: 0 decisions reproduced (or what-if printed), 1 differences, 2 usage error or no journal."})
final class ReplayCommand implements Callable<Integer> {
    @Parameters(paramLabel = "DIR", description = "The journal directory.")
    Path directory;

    @CommandLine.ArgGroup(exclusive = true, multiplicity = "1")
    Mode mode;

    /** Exactly one of the two. */
    static final class Mode {
        @Option(names = "--verify", required = true, description = "Prove the recorded decisions reproduce.")
        boolean verify;

        @Option(names = "--router-policy-config", required = true, paramLabel = "FILE",
            description = "Show what this configuration would have done to the recorded arrivals.")
        Path policyFile;
    }

    @Option(names = "--plugin-path", paramLabel = "DIR", description = "Directories of plugin jars to link.")
    List<Path> pluginPath = new ArrayList<>();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        List<JournalRun> runs = JournalCommand.read(spec, directory);
        if (runs == null) {
            return 2;
        }
        PrintWriter out = spec.commandLine().getOut();
        try {
            return mode.verify ? verify(runs, out) : whatIf(runs, out);
        } catch (ConfigException | RegistryException | IOException e) {
            spec.commandLine().getErr().println("sluice: " + e.getMessage());
            return 2;
        }
    }

    private int verify(List<JournalRun> runs, PrintWriter out) throws ConfigException {
        int differences = 0;
        for (JournalRun run : runs) {
            if (run.header() == null) {
                out.printf("run %d: skipped, its header was deleted by retention%n", run.index());
                continue;
            }
            DecisionComparison.Result result = ReplayVerifier.verify(run);
            out.printf("run %d (%s, policy %s): replayed %d records; compared %d decisions (refused, classified,"
                    + " enqueued, rejected, dispatched) and the order of %d dispatches%n", run.index(),
                run.header().model(), run.header().policySource(), result.records(), result.decisions(),
                result.dispatches());
            out.printf("  simulated %.1f s in %.3f s of wall time: %.0fx real time%n", result.simulatedNs() / 1e9,
                result.wallNs() / 1e9, result.speedUp());
            if (result.differences().isEmpty()) {
                out.println("  decisions reproduce exactly: 0 differences");
            } else {
                out.printf("  %d differences:%n", result.differences().size());
                result.differences().forEach(d -> out.println("    " + d));
            }
            differences += result.differences().size();
        }
        out.flush();
        return differences == 0 ? 0 : 1;
    }

    private int whatIf(List<JournalRun> runs, PrintWriter out) throws ConfigException, RegistryException,
        IOException {
        RouterPolicyConfig other = RouterPolicyLoader.load(mode.policyFile);
        for (JournalRun run : runs) {
            JournalRecord.Header header = run.header();
            if (header == null) {
                out.printf("run %d: skipped, its header was deleted by retention%n", run.index());
                continue;
            }
            RouterPolicyConfig recorded = header.policyText().isEmpty() ? RouterPolicyConfig.none()
                : RouterPolicyLoader.parse(header.policyText(), header.policySource());
            List<Arrival> arrivals = WhatIfReplay.arrivals(run);
            WhatIfFleet.Fleet fleet = WhatIfReplay.fleet(run);
            long duration = arrivals.isEmpty() ? 1 : arrivals.get(arrivals.size() - 1).atNs() + 1;
            WhatIfFleet.Result a = WhatIfFleet.run(recorded, classifier(recorded, header), header
                .fallbackThresholdOption(), header.fallbackPolicy(), fleet, arrivals, duration);
            WhatIfFleet.Result b = WhatIfFleet.run(other, classifier(other, header), header.fallbackThresholdOption(),
                header.fallbackPolicy(), fleet, arrivals, duration);
            out.printf("run %d: %d recorded arrivals over %.1f s on %d simulated workers (max_num_batched_tokens %d)%n",
                run.index(), arrivals.size(), duration / 1e9, fleet.workers(), fleet.maxNumBatchedTokens());
            WhatIfReplay.print(a, b, header.policySource(), mode.policyFile.toString(), out);
            out.printf("  simulated %.1f s twice in %.3f s of wall time: %.0fx real time%n", (a.simulatedNs()
                + b.simulatedNs()) / 2e9, (a.wallNs() + b.wallNs()) / 1e9, (a.simulatedNs() + b.simulatedNs())
                / (double) Math.max(1, a.wallNs() + b.wallNs()));
        }
        out.flush();
        return 0;
    }

    /** The policy's classifier; without one, the demo's when the recording used it, else pass-through. */
    private RequestClassifierFactory classifier(RouterPolicyConfig policy, JournalRecord.Header header)
        throws RegistryException, IOException {
        RequestClassifierFactory configured = PluginPath.registry(pluginPath)
            .resolveRequestClassifier(policy.requestClassifier()).orElse(null);
        if (configured != null || InProcessDemo.DEMO_CLASSIFIER.equals(header.classifier())) {
            return configured;
        }
        return context -> new RequestClassifier() { };
    }
}
