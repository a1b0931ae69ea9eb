package dev.sluice.transport.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.audit.JournalRun;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.journal.JournalContext;
import dev.sluice.core.journal.JournalRecord;
import dev.sluice.core.replay.DecisionComparison;
import dev.sluice.core.replay.ReplayVerifier;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A journaled demo run replays decision for decision; a tampered recording does not. */
class ReplayTest {
    @TempDir
    static Path dir;

    private static JournalRun run;

    @BeforeAll
    static void recordADemoRun() throws Exception {
        String policy;
        try (InputStream in = InProcessDemo.class.getResourceAsStream("demo-policy.yaml")) {
            policy = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        InProcessDemo.Settings settings = new InProcessDemo.Settings(20_000_000_000L, 3, 11,
            RouterPolicyLoader.parse(policy, "demo-policy.yaml"), null,
            dev.sluice.core.router.RouterPlugins.builtinWorkerSelector(
                dev.sluice.core.api.DefaultSelectorSettings.DEFAULTS),
            OptionalDouble.empty(), QueuePolicy.FCFS,
            policy, new JournalContext(dir));
        assertTrue(InProcessDemo.run(settings, new PrintStream(new ByteArrayOutputStream(), true,
            StandardCharsets.UTF_8)));
        List<JournalRun> runs = JournalRun.read(dir, null);
        assertEquals(1, runs.size());
        run = runs.get(0);
    }

    @Test
    void shouldReproduceEveryDecisionOfADemoRun() throws Exception {
        DecisionComparison.Result result = ReplayVerifier.verify(run);
        assertEquals(List.of(), result.differences());
        assertTrue(result.decisions() > 1000, "decisions " + result.decisions());
        assertTrue(result.dispatches() > 300, "dispatches " + result.dispatches());
        assertTrue(run.records().stream().anyMatch(r -> r instanceof JournalRecord.Classified c
            && c.decision() == dev.sluice.core.api.Classification.Kind.PARK), "the run parks agent turns");
        assertTrue(run.records().stream().anyMatch(r -> r instanceof JournalRecord.Rejected), "and rejects some");
    }

    @Test
    void shouldReportADecisionTheRouterWouldNotTake() throws Exception {
        List<JournalRecord> tampered = new ArrayList<>(run.records());
        int at = -1;
        for (int i = 0; i < tampered.size() && at < 0; i++) {
            if (tampered.get(i) instanceof JournalRecord.Dispatched) {
                at = i;
            }
        }
        JournalRecord.Dispatched original = (JournalRecord.Dispatched) tampered.get(at);
        tampered.set(at, new JournalRecord.Dispatched(original.timeNs(), original.lifecycleId(),
            WorkerWithDpRank.of(99)));
        DecisionComparison.Result result = ReplayVerifier.verify(JournalRun.of(1, run.header(), tampered));
        assertEquals(1, result.differences().size(), result.differences().toString());
        assertTrue(result.differences().get(0).toString().contains("worker recorded worker 99/0, replayed worker"),
            result.differences().get(0).toString());
    }

    @Test
    void shouldRebuildTheArrivalsAndFleetForAWhatIf() {
        assertEquals(run.lifecycles().size(), WhatIfReplay.arrivals(run).size());
        assertEquals(3, WhatIfReplay.fleet(run).workers());
        assertEquals(2048, WhatIfReplay.fleet(run).maxNumBatchedTokens());
    }
}
