package dev.sluice.transport.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.audit.JournalRun;
import dev.sluice.core.audit.JournalStats;
import dev.sluice.core.audit.RequestFigures;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.config.RouterPolicyConfig;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.journal.JournalContext;
import dev.sluice.core.journal.JournalRecord;
import dev.sluice.core.replay.DecisionComparison;
import dev.sluice.core.replay.ReplayVerifier;
import dev.sluice.core.replay.RetimedReplay;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
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
    void shouldReproduceTheRecordedDecisionsInAWhatIfUnderTheRecordedPolicy() throws Exception {
        RouterPolicyConfig policy = RetimedReplay.recordedPolicy(run);
        WhatIfReplay whatIf = WhatIfReplay.of(run, InProcessDemo.sessionTurnClassifier(), policy,
            InProcessDemo.sessionTurnClassifier(), "same.yaml");
        assertEquals(List.of(), whatIf.check().differences());
        assertTrue(whatIf.reproduced());
        // The what-if under the same policy is the recording, figure for figure, parks included.
        assertEquals(text(whatIf.recorded()), text(whatIf.other()));
        assertTrue(whatIf.recorded().total().parked() > 0, "the recording parks agent turns");
        assertEquals(0, whatIf.whatIf().estimated());
        assertEquals(0, whatIf.whatIf().elsewhere());
        StringWriter out = new StringWriter();
        whatIf.print(new PrintWriter(out));
        assertTrue(out.toString().contains("model check: the recorded policy on the recorded service times"
            + " reproduces all " + whatIf.check().decisions() + " recorded decisions"), out.toString());
        assertTrue(out.toString().contains("model limits:"), out.toString());
        // Only the heading names both policies; no figure changes under the same one.
        assertEquals(1, out.toString().split(" → ", -1).length - 1, out.toString());
    }

    private static String text(JournalStats figures) {
        StringBuilder text = new StringBuilder(figures.total().rejections().toString());
        figures.byClass().forEach((name, f) -> text.append(name).append(List.of(f.arrived(), f.queued(),
            f.admitted(), f.deferred(), f.parked(), f.count(RequestFigures.Outcome.COMPLETED),
            f.count(RequestFigures.Outcome.REJECTED), f.count(RequestFigures.Outcome.ABORTED)))
            .append(RequestFigures.percentiles(f.queueWaitUs())).append(RequestFigures.percentiles(f.ttftUs())));
        return text.toString();
    }
}
