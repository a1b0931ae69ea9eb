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
 * The fairness experiment on the command's default fleet and seed (4 workers, seed 42) over a short window: with VTC,
 * and with VTC preempting over-served tenants, every backlogged tenant gets an equal share and a light tenant is not
 * held behind the heavy one's backlog; without it the heavy tenant takes most; with VTC preempting the over-served
 * tenant a light tenant waits less than with VTC alone, within twice its wait with no heavy tenant, the heavy tenant
 * losing most. The figures are a function of the seed (virtual clock).
 */
class FairnessExperimentTest {
    private static final long DEFAULT_SEED = 42;
    private static FairnessReport report;

    @BeforeAll
    static void run() {
        report = FairnessExperiment.run(new FairnessExperiment.Settings(4, 16_000_000_000L, DEFAULT_SEED));
    }

    private static TargetCheck check(String target) {
        return report.checks().stream().filter(c -> c.target().startsWith(target)).findFirst().orElseThrow();
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
        assertTrue(check("backlogged, vtc:").held(), report.checks().toString());
    }

    @Test
    void shouldServeEveryBackloggedTenantAnEqualShareWhenVtcPreemptsOverServedTenants() {
        for (String tenant : FairnessExperiment.TENANTS) {
            FairnessReport.Row r = row("backlogged", FairnessExperiment.VTC_PREEMPTION, tenant);
            assertEquals(0.25, r.share(), 0.25 * 0.05, report.rows().toString());
            if (!tenant.equals("heavy")) {
                // Backlogged tenants holding about as much in service do not take workers from each other.
                assertEquals(0, r.preempted(), r.toString());
            }
        }
        assertTrue(check("backlogged, " + FairnessExperiment.VTC_PREEMPTION).held(), report.checks().toString());
        FairnessReport.Row heavy = row("backlogged", FairnessExperiment.VTC_PREEMPTION, "heavy");
        assertTrue(heavy.lostTokens() >= heavy.preempted(), "a preempted request's prompt is lost: " + heavy);
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
        assertTrue(check("light-load, vtc: light tenants' queue-wait p99 within 2x of their wait").held(),
            report.checks().toString());
    }

    @Test
    void shouldShortenALightTenantsWaitWhenVtcPreemptsTheOverServedTenant() {
        TargetCheck preemption = check("light-load, " + FairnessExperiment.VTC_PREEMPTION);
        assertTrue(preemption.held(), preemption.toString());
        FairnessReport.Row heavy = row("light-load", FairnessExperiment.VTC_PREEMPTION, "heavy");
        assertTrue(heavy.preempted() > 0 && heavy.retries() > 0, heavy.toString());
        assertEquals(0, row("light-load", "vtc", "heavy").preempted());
        long lightPreempted = 0;
        for (String tenant : List.of("light-a", "light-b", "light-c")) {
            FairnessReport.Row light = row("light-load", FairnessExperiment.VTC_PREEMPTION, tenant);
            lightPreempted += light.preempted();
            assertTrue(light.waitP99Ms() < row("light-load", "vtc", tenant).waitP99Ms(), light.toString());
            double alone = Math.max(row("no-heavy", "vtc", tenant).waitP99Ms(), 1.0);
            assertTrue(light.waitP99Ms() <= 2 * alone, "within twice no-heavy: " + light);
        }
        assertTrue(lightPreempted < heavy.preempted(), "the heavy tenant loses most: " + report.rows());
    }

    @Test
    void shouldPrintOneJsonObjectPerTenantAndRun() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        report.printJson(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(27, lines.size());
        for (String key : List.of("\"tenant\":", "\"fairness\":", "\"offered_tokens\":", "\"served_tokens\":",
            "\"share\":", "\"wait_p50_ms\":", "\"wait_p99_ms\":", "\"next_slot_p99_ms\":", "\"preempted\":",
            "\"lost_tokens\":", "\"retries\":")) {
            assertTrue(lines.get(0).contains(key), key + " in " + lines.get(0));
        }
    }
}
