package dev.sluice.transport.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.core.audit.JournalRun;
import dev.sluice.core.config.ConfigException;
import dev.sluice.core.config.RouterPolicyConfig;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.journal.JournalRecord;
import dev.sluice.core.replay.DecisionComparison;
import dev.sluice.core.replay.ReplayVerifier;
import dev.sluice.core.replay.RetimedReplay;
import dev.sluice.core.spi.RegistryException;
import dev.sluice.core.spi.RequestClassifier;
import dev.sluice.core.spi.RequestClassifierFactory;
import dev.sluice.transport.demo.InProcessDemo;
import dev.sluice.transport.demo.ReplayJson;
import dev.sluice.transport.demo.WhatIfReplay;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
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
        "--router-policy-config FILE: replays the recorded inputs under the given configuration, each dispatch "
            + "answered with the recorded service times of that request, and prints per class what changed next to "
            + "the recording; first it checks that the recorded configuration reproduces the recording, and it "
            + "says what it could not model.",
        "--json: one JSON object with the same content (snake_case keys).",
        "Exit codes: 0 decisions reproduced (or what-if printed), 1 differences, 2 usage error or no journal, 3 the "
            + "journal is damaged (nothing is replayed; each damaged record is named on stderr)."})
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

    @Option(names = "--json", description = "Print one JSON object (snake_case keys) instead of text.")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        JournalReading reading = JournalReading.read(spec, directory);
        if (reading == null) {
            return 2;
        }
        if (reading.damaged()) {
            // A replay of the records that could be read would report the missing ones as differences.
            spec.commandLine().getErr().println("sluice: not replaying a damaged journal");
            spec.commandLine().getErr().flush();
            return JournalReading.DAMAGED;
        }
        List<JournalRun> runs = reading.runs();
        PrintWriter out = spec.commandLine().getOut();
        ObjectNode document = JsonNodeFactory.instance.objectNode();
        document.put("journal", directory.toString());
        document.put("mode", mode.verify ? "verify" : "what_if");
        ArrayNode results = document.putArray("runs");
        try {
            int rc = mode.verify ? verify(runs, out, results) : whatIf(runs, out, results);
            if (json) {
                document.put("exit_code", rc);
                out.println(new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(document));
            }
            out.flush();
            return rc;
        } catch (ConfigException | RegistryException | IOException e) {
            spec.commandLine().getErr().println("sluice: " + e.getMessage());
            return 2;
        }
    }

    private int verify(List<JournalRun> runs, PrintWriter out, ArrayNode results) throws ConfigException {
        PrintWriter text = json ? new PrintWriter(Writer.nullWriter()) : out;
        int differences = 0;
        for (JournalRun run : runs) {
            if (run.header() == null) {
                text.printf("run %d: skipped, its header was deleted by retention%n", run.index());
                results.addObject().put("run", run.index()).put("skipped", "its header was deleted by retention");
                continue;
            }
            DecisionComparison.Result result = ReplayVerifier.verify(run);
            results.add(ReplayJson.verified(run.header(), result));
            text.printf("run %d (%s, policy %s): replayed %d records; compared %d decisions (refused, classified,"
                    + " enqueued, rejected, dispatched) and the order of %d dispatches%n", run.index(),
                run.header().model(), run.header().policySource(), result.records(), result.decisions(),
                result.dispatches());
            text.printf("  simulated %.1f s in %.3f s of wall time: %.0fx real time%n", result.simulatedNs() / 1e9,
                result.wallNs() / 1e9, result.speedUp());
            if (result.differences().isEmpty()) {
                text.println("  decisions reproduce exactly: 0 differences");
            } else {
                text.printf("  %d differences:%n", result.differences().size());
                result.differences().forEach(d -> text.println("    " + d));
            }
            if (!result.undecided().isEmpty()) {
                text.printf("  %d arrivals not compared (the run was cut short):%n", result.undecided().size());
                result.undecided().forEach(u -> text.println("    " + u));
            }
            differences += result.differences().size();
        }
        text.flush();
        return differences == 0 ? 0 : 1;
    }

    private int whatIf(List<JournalRun> runs, PrintWriter out, ArrayNode results) throws ConfigException,
        RegistryException, IOException {
        PrintWriter text = json ? new PrintWriter(Writer.nullWriter()) : out;
        RouterPolicyConfig other = RouterPolicyLoader.load(mode.policyFile);
        for (JournalRun run : runs) {
            JournalRecord.Header header = run.header();
            if (header == null) {
                text.printf("run %d: skipped, its header was deleted by retention%n", run.index());
                results.addObject().put("run", run.index()).put("skipped", "its header was deleted by retention");
                continue;
            }
            WhatIfReplay replay = WhatIfReplay.of(run, classifier(RetimedReplay.recordedPolicy(run), header), other,
                classifier(other, header), mode.policyFile.toString());
            replay.print(text);
            results.add(replay.json());
        }
        text.flush();
        return 0;
    }

    /** The policy's classifier; without one, the demo's when the recording used it, else pass-through. */
    private RequestClassifierFactory classifier(RouterPolicyConfig policy, JournalRecord.Header header)
        throws RegistryException, IOException {
        RequestClassifierFactory configured = PluginPath.registry(pluginPath)
            .resolveRequestClassifier(policy.requestClassifier()).orElse(null);
        if (configured != null) {
            return configured;
        }
        if (InProcessDemo.DEMO_CLASSIFIER.equals(header.classifier())) {
            return InProcessDemo.sessionTurnClassifier();
        }
        return context -> new RequestClassifier() { };
    }
}
