package dev.sluice.perf.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The scheduling-quality experiment on a small fleet and short windows (a few seconds of wall time): DRR
 * shares follow the quanta, deadlines are enforced in the queue, and past capacity the policy queues keep goodput
 * where admitting everything loses it.
 */
class SchedulingQualityExperimentTest {
    private static final long SECOND = 1_000_000_000L;
    private static final double[] RAMP = {50, 100, 200};
    private static QualityReport report;

    @BeforeAll
    static void run() {
        SchedulingQualityExperiment.Settings d = SchedulingQualityExperiment.Settings.defaults(2, 40 * SECOND,
            20 * SECOND, 7);
        report = SchedulingQualityExperiment.run(new SchedulingQualityExperiment.Settings(2, d.classes(), d.policy(),
            d.sloNs(), 40 * SECOND, 10 * SECOND, 20 * SECOND, RAMP, 300, 150, d.drainLimitNs(), 7));
    }

    @Test
    void shouldServeEachFamilyItsQuantumShareOfTokensWhenAllAreBacklogged() {
        assertEquals(List.of("premium", "standard", "batch"),
            report.shares().stream().map(QualityReport.ShareRow::family).toList());
        assertTrue(report.maxShareError() <= 0.10, report.shares().toString());
        QualityReport.ShareRow batch = report.shares().get(2);
        assertTrue(batch.requestShare() < batch.achieved(), "batch prompts are 3x longer: fewer requests per token");
    }

    @Test
    void shouldRejectExpiredRequestsInsteadOfDispatchingThemLate() {
        long expired = 0;
        for (QualityReport.DeadlineRow row : report.deadlines()) {
            assertEquals(0, row.late(), row.toString());
            assertTrue(row.waitP99Ms() <= 1000, "no dispatch after due_at = ingress + 1 s: " + row);
            expired += row.expired();
        }
        assertTrue(expired > 0, "150% of capacity must expire some requests: " + report.deadlines());
        assertTrue(report.deadlines().get(0).missRate() < report.deadlines().get(2).missRate(),
            "the heaviest quantum misses least: " + report.deadlines());
    }

    @Test
    void shouldReportOneRampRowPerStepAndVariantAndKeepGoodputPastCapacity() {
        assertEquals(2 * RAMP.length, report.ramp().size());
        for (int i = 0; i < RAMP.length; i++) {
            QualityReport.RampRow queued = report.ramp().get(i);
            QualityReport.RampRow unqueued = report.ramp().get(RAMP.length + i);
            assertEquals(RAMP[i], queued.loadPercent());
            assertTrue(queued.queued() && !unqueued.queued());
            assertEquals(queued.offered(), unqueued.offered(), "both variants see the same arrivals");
            assertEquals(0, unqueued.rejected(), "without the policy queues nothing is rejected");
        }
        QualityReport.RampRow top = report.ramp().get(RAMP.length - 1);
        QualityReport.RampRow topUnqueued = report.ramp().get(2 * RAMP.length - 1);
        double capacity = report.capacityPerSecond();
        assertTrue(top.goodputPerSecond() > 0.8 * capacity, top + " vs capacity " + capacity);
        assertTrue(topUnqueued.goodputPerSecond() < 0.5 * top.goodputPerSecond(), topUnqueued + " vs " + top);
    }

    @Test
    void shouldEndEveryRequestOnceAndPrintEveryTable() {
        assertTrue(report.balanced());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        QualityTables.print(report, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("### DRR service share") && text.contains("### Deadline misses")
            && text.contains("### Goodput under a load ramp"), text);
        assertTrue(text.contains("| 200% | no |"), text);
        assertTrue(text.contains("type: queue-budget"), "the policy is printed: " + text);
    }
}
