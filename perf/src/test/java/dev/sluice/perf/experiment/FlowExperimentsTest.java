package dev.sluice.perf.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The preemption and reload experiments on a small fleet and a short window (virtual clock): preemptible bulk work
 * gives the interactive class its queue wait back, and its preempted clients send their requests again; reloads
 * under load lose nothing and each is applied.
 */
class FlowExperimentsTest {
    private static final FairnessExperiment.Settings SMALL = new FairnessExperiment.Settings(2, 16_000_000_000L, 7);

    @Test
    void shouldCutTheInteractiveWaitWithPreemptibleBulkWorkWhosePreemptedClientsRetry() {
        FlowReport report = PreemptionExperiment.run(SMALL);
        FlowReport.Row without = FlowReport.find(report.rows(), "not preemptible", "interactive");
        FlowReport.Row with = FlowReport.find(report.rows(), "preemptible", "interactive");
        FlowReport.Row bulk = FlowReport.find(report.rows(), "preemptible", "bulk");
        assertTrue(with.waitP99Ms() * 5 < without.waitP99Ms(), report.rows().toString());
        assertEquals(0, FlowReport.find(report.rows(), "not preemptible", "bulk").preempted());
        assertTrue(bulk.preempted() > 0 && bulk.retries() > 0 && bulk.retries() <= bulk.preempted(),
            bulk.toString());
        assertEquals(0, with.preempted(), "the class that is not preemptible is never a victim");
        assertTrue(report.held(), report.checks().toString());
        assertEquals(5, report.rows().size());
    }

    @Test
    void shouldLoseNothingAcrossReloadsUnderLoadAndApplyEach() {
        FlowReport report = ReloadExperiment.run(SMALL);
        for (String family : PreemptionExperiment.FAMILIES) {
            FlowReport.Row row = FlowReport.find(report.rows(), ReloadExperiment.RELOADS + " reloads", family);
            assertEquals(row.arrivals(), row.completed(), row.toString());
            assertEquals(0, row.lost(), row.toString());
            assertEquals(FlowReport.find(report.rows(), "no reloads", family).arrivals(), row.arrivals());
        }
        assertTrue(report.held(), report.checks().toString());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        report.printTable(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String table = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(table.contains("- held: every reload applied"), table);
        assertTrue(table.contains("| 20 reloads | bulk |"), table);
    }
}
