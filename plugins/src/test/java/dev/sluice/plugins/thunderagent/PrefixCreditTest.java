package dev.sluice.plugins.thunderagent;

import static dev.sluice.plugins.thunderagent.ThunderHarness.w;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code shared_prefix_budget}: a rank's usage is credited the prompt tokens of its sent reasoning programs beyond
 * the KV the host reports in use there, so a prefix the engine holds once is charged once.
 */
class PrefixCreditTest {
    private static final Map<String, Object> ON = Map.of("shared_prefix_budget", true);

    /** Two 4,000-token programs sharing a 3,000-token prefix: the engine holds 5,000 tokens, not 8,000. */
    private static ThunderHarness twoSharingPrograms(Map<String, ?> parameters) {
        ThunderHarness h = new ThunderHarness(parameters).worker(1, 10_000);
        h.submit("request-a", "session-a", 4_000);
        h.sent("request-a", 1);
        h.submit("request-b", "session-b", 4_000);
        h.sent("request-b", 1);
        h.kvInUse.put(w(1), 5_000L);
        return h;
    }

    @Test
    void shouldChargeASharedPrefixOnceAndAdmitTheNewcomerItMakesRoomFor() {
        ThunderHarness h = twoSharingPrograms(ON);
        assertEquals(8_200.0 - 3_000, h.state().usage(h.config).get(w(1)));
        h.submit("request-c", "session-c", 4_000);
        assertTrue(h.released("request-c"), "5,200 + 4,100 fits 10,000");
        assertEquals(w(1), h.target("request-c"));

        ThunderHarness off = twoSharingPrograms(Map.of());
        assertEquals(8_200.0, off.state().usage(off.config).get(w(1)));
        off.submit("request-c", "session-c", 4_000);
        assertTrue(off.waiting("request-c"), "8,200 + 4,100 does not fit without the credit");
    }

    @Test
    void shouldChargeATurnInFullUntilItsSentArrives() {
        ThunderHarness h = new ThunderHarness(ON).worker(1, 10_000);
        h.submit("request-a", "session-a", 4_000);
        h.sent("request-a", 1);
        h.submit("request-b", "session-b", 4_000);
        h.kvInUse.put(w(1), 4_000L);
        assertEquals(8_200.0, h.state().usage(h.config).get(w(1)), "request-b is not booked yet: no credit");
        h.sent("request-b", 1);
        h.kvInUse.put(w(1), 5_000L);
        assertEquals(5_200.0, h.state().usage(h.config).get(w(1)));
    }

    @Test
    void shouldGiveNoCreditToActingProgramsUnknownRanksOrWhenTheEngineHoldsMore() {
        ThunderHarness h = twoSharingPrograms(ON);
        h.completed("request-a", 4_300);
        assertEquals(4_300 + 4_000 + 200 - 0.0, h.state().usage(h.config).get(w(1)),
            "only request-b runs: 4,000 tokens against 5,000 in use is no credit");
        h.kvInUse.put(w(1), 1_000L);
        assertEquals(4_300 + 1_000 + 200.0, h.state().usage(h.config).get(w(1)),
            "the acting program's 4,300 tokens are never credited");
        h.kvInUse.remove(w(1));
        assertEquals(8_500.0, h.state().usage(h.config).get(w(1)), "no figure for the rank: no credit");
    }

    @Test
    void shouldCreditEachRankAgainstItsOwnFigure() {
        ThunderHarness h = new ThunderHarness(ON).worker(1, 10_000).worker(2, 10_000);
        h.submit("request-a", "session-a", 4_000);
        h.sent("request-a", 1);
        h.submit("request-b", "session-b", 4_000);
        h.sent("request-b", 2);
        h.kvInUse.put(w(1), 1_000L);
        h.kvInUse.put(w(2), 4_000L);
        Map<?, Double> used = h.state().usage(h.config);
        assertEquals(1_100.0, used.get(w(1)));
        assertEquals(4_100.0, used.get(w(2)));
    }

    @Test
    void shouldKeepTheCreditInTheReconcilePassSoACreditedRankIsNotDrained() {
        Map<String, Object> fast = Map.of("shared_prefix_budget", true, "scheduler_interval_seconds", 0.05);
        ThunderHarness h = new ThunderHarness(fast).worker(1, 10_000);
        h.submit("request-a", "session-a", 5_000);
        h.sent("request-a", 1);
        h.completed("request-a", 5_000);
        h.submit("request-b", "session-b", 4_500);
        h.sent("request-b", 1);
        h.kvInUse.put(w(1), 500L);
        h.advance(Duration.ofMillis(50));
        assertFalse(h.program("session-a").paused, "5,100 + 4,600 - 4,000 is under 0.95 x 10,000");

        ThunderHarness off = new ThunderHarness(Map.of("scheduler_interval_seconds", 0.05)).worker(1, 10_000);
        off.submit("request-a", "session-a", 5_000);
        off.sent("request-a", 1);
        off.completed("request-a", 5_000);
        off.submit("request-b", "session-b", 4_500);
        off.sent("request-b", 1);
        off.advance(Duration.ofMillis(50));
        assertTrue(off.program("session-a").paused, "9,700 is above 0.95 x 10,000 without the credit");
    }
}
