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
 * The fairness experiment on a small fleet and a short window: with VTC every backlogged tenant gets an equal share
 * and a light tenant is not held behind the heavy one's backlog; without it the heavy tenant takes most.
 */
class FairnessExperimentTest {
    private static FairnessReport report;

    @BeforeAll
    static void run() {
        report = FairnessExperiment.run(new FairnessExperiment.Settings(2, 16_000_000_000L, 7));
    }

    private static FairnessReport.Row row(String run, String fairness, String tenant) {
        return report.rows().stream().filter(r -> r.run().equals(run) && r.fairness().equals(fairness)
            && r.tenant().equals(tenant)).findFirst().orElseThrow();
    }

    @Test
    void shouldServeEveryBackloggedTenantAnEqualShareWithVtcAndTheHeavyOneMostWithout() {
        for (String tenant : FairnessExperiment.TENANTS) {
            assertEquals(0.25, row("backlogged", "vtc", tenant).share(), 0.25 * 0.05, report.rows().toString());
        }
        assertTrue(row("backlogged", "none", "heavy").share() > 0.6, report.rows().toString());
        assertTrue(report.checks().get(0).held(), report.checks().toString());
    }

    @Test
    void shouldKeepALightTenantsWaitFarBelowTheHeavyBacklogsWithVtc() {
        for (String tenant : List.of("light-a", "light-b", "light-c")) {
            double fair = row("light-load", "vtc", tenant).waitP99Ms();
            double unfair = row("light-load", "none", tenant).waitP99Ms();
            assertTrue(fair * 5 < unfair, tenant + ": " + fair + " ms with vtc, " + unfair + " ms without");
        }
    }

    @Test
    void shouldHoldALightTenantWithVtcNoLongerThanTheWaitForTheNextFreeSlotAllowsWhileTheHeavyOneSaturates() {
        for (String tenant : List.of("light-a", "light-b", "light-c")) {
            FairnessReport.Row fair = row("light-load", "vtc", tenant);
            assertEquals(0.0, row("no-heavy", "vtc", tenant).slotP99Ms(), 1e-9, "alone it never waits for a slot");
            assertTrue(fair.slotP99Ms() > 0 && fair.slotP99Ms() <= fair.waitP99Ms(), fair.toString());
            assertTrue(fair.waitP99Ms() <= 2 * fair.slotP99Ms(), fair.toString());
        }
        assertTrue(report.checks().get(2).held(), report.checks().toString());
    }

    @Test
    void shouldPrintOneJsonObjectPerTenantAndRun() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        report.printJson(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(19, lines.size());
        for (String key : List.of("\"tenant\":", "\"fairness\":", "\"offered_tokens\":", "\"served_tokens\":",
            "\"share\":", "\"wait_p50_ms\":", "\"wait_p99_ms\":", "\"next_slot_p99_ms\":")) {
            assertTrue(lines.get(0).contains(key), key + " in " + lines.get(0));
        }
    }
}
