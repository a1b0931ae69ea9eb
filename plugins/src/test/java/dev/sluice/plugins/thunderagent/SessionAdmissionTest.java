package dev.sluice.plugins.thunderagent;

import static dev.sluice.plugins.thunderagent.ThunderHarness.w;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyEvent;
import dev.sluice.core.api.SessionContext;
import dev.sluice.plugins.testing.FakeRequest;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Admission of a session's turns: serialization, placement, stickiness, final turns, liveness and cold start. */
class SessionAdmissionTest {

    /** Dynamo: serializes_requests_for_one_session. */
    @Test
    void shouldRunOneTurnPerSessionAndReleaseTheNextWhenItCompletes() {
        ThunderHarness h = new ThunderHarness().worker(1, 1000);
        h.submit("request-1", "session-a", 100);
        assertTrue(h.released("request-1"));
        h.sent("request-1", 1);
        h.submit("request-2", "session-a", 100);
        assertTrue(h.waiting("request-2"));

        h.completed("request-1", 150);
        assertTrue(h.released("request-2"));
        assertEquals(w(1), h.target("request-2"), "a continuation stays on its program's worker");
    }

    @Test
    void shouldLetOtherSessionsThroughWhileOneWaits() {
        ThunderHarness h = new ThunderHarness().worker(1, 1000);
        h.submit("a-1", "a", 10);
        h.submit("a-2", "a", 10);
        h.submit("b-1", "b", 10);
        assertTrue(h.waiting("a-2"));
        assertTrue(h.released("b-1"));
    }

    @Test
    void shouldPassSessionlessRequestsThroughWithoutTrackingOrReadingCapacity() {
        ThunderHarness h = new ThunderHarness().worker(1, 1);
        FakeRequest anonymous = h.submit(new FakeRequest("anonymous", null, 1_000_000, 0));
        assertEquals(Classification.Kind.ADMIT, h.decision("anonymous").kind());
        assertNull(anonymous.workerSelectionTarget());
        assertEquals(0, h.capacityReads);
        assertTrue(h.state().isEmpty());
        assertFalse(h.classifier.reconciling());
    }

    /** Dynamo: selects_a_worker_then_reconciles_the_sent_event (buffer 0 so that 250 tokens fit 300). */
    @Test
    void shouldPickTheLeastUsedWorkerThatFitsThenFollowTheSentWorker() {
        ThunderHarness h = new ThunderHarness(Map.of("buffer_per_program", 0)).worker(1, 300).worker(2, 1000);
        h.submit("request-1", "session-a", 250);
        assertEquals(w(1), h.target("request-1"));
        assertEquals(w(1), h.program("session-a").assignedWorker);

        h.sent("request-1", 2);
        assertEquals(w(2), h.program("session-a").assignedWorker);
    }

    @Test
    void shouldSkipAWorkerWithoutRoomForInputPlusBuffer() {
        ThunderHarness h = new ThunderHarness().worker(1, 300).worker(2, 1000);
        h.submit("request-1", "session-a", 250);
        assertEquals(w(2), h.target("request-1"), "250 + buffer 100 does not fit 300");
    }

    /** Dynamo: sent_event_reconciles_the_actual_worker. */
    @Test
    void shouldRecordTheActualWorkerFromSent() {
        ThunderHarness h = new ThunderHarness().worker(1, 1000).worker(2, 1000);
        h.submit("request-1", "session-a", 100);
        assertEquals(w(1), h.target("request-1"));
        h.sent("request-1", 2);
        assertEquals(w(2), h.program("session-a").assignedWorker);
    }

    /** Dynamo: final_session_frees_capacity_at_admission_without_restoring_on_abort. */
    @Test
    void shouldFreeAFinalSessionAtAdmissionAndNotRestoreItOnAbort() {
        ThunderHarness h = new ThunderHarness(Map.of("buffer_per_program", 0, "scheduler_interval_seconds", 1))
            .worker(1, 250);
        h.submit("request-1", "session-a", 200);
        h.sent("request-1", 1);
        h.completed("request-1", 200);
        h.submit("request-2", "session-b", 100);
        assertTrue(h.waiting("request-2"), "200 + 100 > 250");

        h.submitFinal("request-3", "session-a", 1);
        assertTrue(h.released("request-3"));
        assertEquals(w(1), h.target("request-3"), "a final turn goes to the program's last worker");
        assertNull(h.program("session-a"));
        assertTrue(h.waiting("request-2"), "released by the next reconcile, not at once");

        h.advance(java.time.Duration.ofSeconds(1));
        assertTrue(h.released("request-2"));
        h.aborted("request-3");
        assertNull(h.program("session-a"));
    }

    /** Dynamo: final_session_waits_for_inflight_turn_then_removes_program. */
    @Test
    void shouldHoldAFinalTurnBehindTheRunningTurnThenForgetTheProgram() {
        ThunderHarness h = new ThunderHarness().worker(1, 1000);
        h.submit("request-1", "session-a", 100);
        h.submitFinal("request-2", "session-a", 1);
        assertTrue(h.waiting("request-2"));
        assertTrue(h.program("session-a") != null);

        h.completed("request-1", 120);
        assertTrue(h.released("request-2"));
        assertNull(h.program("session-a"));
    }

    /** Dynamo: live_worker_without_a_model_card_keeps_its_session_assignment. */
    @Test
    void shouldKeepASessionOnALiveWorkerThatLostItsCardAndMoveItWhenTheWorkerLeaves() {
        ThunderHarness h = new ThunderHarness().worker(1, 1000).worker(2, 1000);
        h.submit("request-1", "session-a", 100);
        h.sent("request-1", 1);
        h.completed("request-1", 100);
        h.workerWithoutCard(1);
        h.submit("request-2", "session-a", 100);
        assertEquals(w(1), h.target("request-2"));
        h.sent("request-2", 1);
        h.completed("request-2", 100);

        h.removeWorker(1);
        h.submit("request-3", "session-a", 100);
        assertTrue(h.released("request-3"));
        assertEquals(w(2), h.target("request-3"));
        h.sent("request-3", 2);
        assertEquals(w(2), h.program("session-a").assignedWorker);
    }

    /** Dynamo: stale_capacity_card_is_not_used_for_assignment (here: a worker that left takes no placement). */
    @Test
    void shouldNotPlaceOnAWorkerThatLeft() {
        ThunderHarness h = new ThunderHarness().worker(1, 1000).worker(2, 1000).removeWorker(1);
        h.submit("request-1", "session-a", 100);
        assertEquals(w(2), h.target("request-1"));
        h.sent("request-1", 2);
        assertEquals(w(2), h.program("session-a").assignedWorker);
    }

    /** Dynamo: authoritative_empty_liveness_clears_the_last_assignment. */
    @Test
    void shouldReleaseWithoutTargetWhenNoWorkerIsLive() {
        ThunderHarness h = new ThunderHarness().worker(1, 1000);
        h.submit("request-1", "session-a", 100);
        h.sent("request-1", 1);
        h.completed("request-1", 100);
        h.removeWorker(1);
        h.submit("request-2", "session-a", 100);
        assertTrue(h.released("request-2"));
        assertNull(h.target("request-2"));
        assertNull(h.program("session-a").assignedWorker);
    }

    /** Dynamo: cold_start_without_model_cards_flows_through. */
    @Test
    void shouldFlowThroughWithoutAnyCapacityCard() {
        ThunderHarness h = new ThunderHarness().workerWithoutCard(1);
        h.submit("request-1", "session-a", 1_000_000);
        assertTrue(h.released("request-1"));
        assertNull(h.target("request-1"));
        ThunderHarness none = new ThunderHarness();
        none.submit("request-1", "session-a", 10);
        assertTrue(none.released("request-1"));
    }

    /** Dynamo: hard_pin_is_charged_to_authoritative_worker_not_provisional (#15280). */
    @Test
    void shouldPlaceAPinnedTurnOnlyOnItsPinAndChargeThatWorker() {
        ThunderHarness h = new ThunderHarness().worker(0, 64_000).worker(1, 64_000);
        h.submit("old", "old", 30_000);
        assertEquals(w(0), h.target("old"));
        h.completed("old", 30_000);

        h.submit(new FakeRequest("p1", SessionContext.of("p1"), 16_000, 0).pinned(w(0)));
        assertEquals(w(0), h.target("p1"));
        h.sent("p1", 0);
        assertTrue(h.state().usage(h.config).get(w(0)) <= 64_000);
        assertNull(h.state().usage(h.config).get(w(1)));

        h.submit(new FakeRequest("newcomer", SessionContext.of("n"), 31_000, 0).pinned(w(1)));
        assertEquals(w(1), h.target("newcomer"));
        h.submit(new FakeRequest("too-big", SessionContext.of("t"), 40_000, 0).pinned(w(0)));
        assertTrue(h.waiting("too-big"), "no room on its pin, and no other worker may take it");
        assertEquals(31_100.0, h.state().usage(h.config).get(w(1)));
    }

    @Test
    void shouldIgnoreEventsOfSessionlessRequests() {
        ThunderHarness h = new ThunderHarness().worker(1, 1000);
        h.classifier.onEvent(new ClassifyEvent.Completed("ghost", w(1), OptionalLong.of(5)));
        h.classifier.onEvent(new ClassifyEvent.Aborted("ghost", Optional.empty(), Optional.empty()));
        assertTrue(h.state().isEmpty());
    }
}
