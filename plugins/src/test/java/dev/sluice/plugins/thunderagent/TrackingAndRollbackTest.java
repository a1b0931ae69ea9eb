package dev.sluice.plugins.thunderagent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyEvent;
import dev.sluice.core.api.ErrorClass;
import dev.sluice.core.api.SessionContext;
import dev.sluice.plugins.testing.FakeRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Retention and tracking limits, registration errors, rollback on abort, reused ids and the arrival order. */
class TrackingAndRollbackTest {

    /** Dynamo: retained_session_expires_before_its_next_request. */
    @Test
    void shouldStartAFreshProgramAfterRetentionExpires() {
        ThunderHarness h = new ThunderHarness(Map.of("session_retention_seconds", 0.005)).worker(1, 1000);
        h.submit("request-1", "session-a", 10);
        h.completed("request-1", 20);
        h.clock.advance(Duration.ofMillis(10).toNanos());
        h.submit("request-2", "session-a", 10);
        assertEquals(1, h.program("session-a").stepCount);
    }

    @Test
    void shouldCountStepsOfARetainedProgram() {
        ThunderHarness h = new ThunderHarness().worker(1, 1000);
        h.submit("request-1", "session-a", 10);
        h.completed("request-1", 20);
        h.submit("request-2", "session-a", 30);
        assertEquals(2, h.program("session-a").stepCount);
        assertEquals(30, h.program("session-a").currentTokens());
    }

    /** Dynamo: tracked_request_limit_is_enforced_before_allocating_state. */
    @Test
    void shouldRefuseARequestOverTheTrackingLimitBeforeTrackingIt() {
        ThunderHarness h = new ThunderHarness(Map.of("max_tracked_requests", 1)).worker(1, 1000);
        h.submit("request-1", "session-a", 10);
        h.submit("request-2", "session-b", 10);
        Classification refused = h.decision("request-2");
        assertEquals(Classification.Kind.REJECT, refused.kind());
        AdmissionError error = refused.error();
        assertEquals(ErrorClass.INTERNAL, error.errorClass());
        assertEquals("ThunderAgent is already tracking its configured limit of 1 requests", error.diagnostic());
        assertEquals("request classifier failed", error.publicMessage());
        assertEquals(1, h.state().requests.size());
        assertNull(h.program("session-b"));
    }

    /** Dynamo: retained_programs_are_bounded_by_the_tracking_limit. */
    @Test
    void shouldEvictTheOldestIdleProgramAtTheLimit() {
        ThunderHarness h = new ThunderHarness(Map.of("max_tracked_requests", 2)).worker(1, 1000);
        h.submit("a", "a", 10);
        h.completed("a", 10);
        h.clock.advance(Duration.ofMillis(1).toNanos());
        h.submit("b", "b", 10);
        h.completed("b", 10);
        h.submit("c", "c", 10);
        assertEquals(Set.of("b", "c"), h.state().programs.keySet());
    }

    @Test
    void shouldRefuseADuplicateOrMissingRequestId() {
        ThunderHarness h = new ThunderHarness().worker(1, 1000);
        h.submit("same", "a", 10);
        h.submit(new FakeRequest("same", SessionContext.of("b"), 10, 0));
        assertEquals("request \"same\" is already active in the ThunderAgent classifier",
            h.decision("same").error().diagnostic());
        h.submit(new FakeRequest("", SessionContext.of("c"), 10, 0));
        assertEquals("session-aware classification requires a request ID", h.decision("").error().diagnostic());
    }

    /** Dynamo: aborted_request_rolls_back_new_program. */
    @Test
    void shouldRemoveTheProgramAnAbortedTurnCreated() {
        ThunderHarness h = new ThunderHarness().worker(1, 1000);
        h.submit("request-1", "session-a", 10);
        h.aborted("request-1");
        assertNull(h.program("session-a"));
        assertTrue(h.state().isEmpty());
    }

    @Test
    void shouldRestoreTheProgramAsItWasBeforeAnAbortedContinuation() {
        ThunderHarness h = new ThunderHarness().worker(1, 1000);
        h.submit("request-1", "session-a", 10);
        h.completed("request-1", 40);
        h.submit("request-2", "session-a", 90);
        assertEquals(Program.Status.REASONING, h.program("session-a").status);
        h.aborted("request-2");
        Program restored = h.program("session-a");
        assertEquals(Program.Status.ACTING, restored.status);
        assertEquals(40, restored.currentTokens());
        assertEquals(1, restored.stepCount);
    }

    /** Dynamo: dropping_pending_classification_rolls_back_its_program. */
    @Test
    void shouldRollBackAParkedRequestWhoseClientLeft() {
        ThunderHarness h = new ThunderHarness(Map.of("buffer_per_program", 0)).worker(1, 100);
        h.submit("request-1", "session-a", 60);
        h.sent("request-1", 1);
        h.submit("request-2", "session-b", 60);
        assertTrue(h.waiting("request-2"));
        h.aborted("request-2");
        assertNull(h.program("session-b"));
        assertNull(h.request("request-2"));
        assertEquals(0, h.state().waitingCount());
    }

    /** Dynamo: dropping_an_unpolled_classification_rolls_back_its_program (here: the wake-up is refused). */
    @Test
    void shouldRollBackWhenAWakeUpIsRefusedBecauseTheLifecycleEnded() {
        ThunderHarness h = new ThunderHarness(Map.of("buffer_per_program", 0)).worker(1, 100);
        h.submit("request-1", "session-a", 60);
        FakeRequest gone = h.submit("request-2", "session-b", 60);
        gone.end();
        h.worker(1, 1000);
        h.classifier.reconcile();
        assertFalse(gone.woken());
        assertNull(h.program("session-b"));
        assertNull(h.request("request-2"));
        h.classifier.onEvent(new ClassifyEvent.Aborted("request-2", Optional.empty(), Optional.empty()));
        assertEquals(1, h.state().requests.size());
    }

    /** Dynamo: dropping_an_old_classification_preserves_a_reused_request_id. */
    @Test
    void shouldKeepANewRegistrationOfAReusedIdWhenTheOldOneEnds() {
        ThunderHarness h = new ThunderHarness().worker(1, 1000);
        h.submit("blocker", "old-session", 10);
        FakeRequest old = h.submit("reused", "old-session", 10);
        h.aborted("reused");
        h.submit("reused", "new-session", 10);
        PendingRequest replacement = h.request("reused");
        assertEquals("new-session", replacement.sessionId);
        assertFalse(old.wakeup().admit(), "the old lifecycle's wake-up is closed");
        assertTrue(h.released("reused"));
        h.completed("reused", 10);
        assertNull(h.request("reused"));
    }

    /** Dynamo: an_old_waiter_cannot_read_a_reused_request_id. */
    @Test
    void shouldNeverWakeTheOldWaiterOfAReusedId() {
        ThunderHarness h = new ThunderHarness().worker(1, 1000);
        FakeRequest old = h.submit("reused", "a", 1500);
        assertTrue(h.waiting("reused"));
        h.aborted("reused");
        h.submit("reused", "b", 10);
        assertTrue(h.released("reused"));
        assertFalse(old.woken());
        assertSame(h.state().requests.get("reused"), h.request("reused"));
    }

    /** Dynamo: a_reused_request_id_does_not_revive_a_canceled_queue_entry. */
    @ParameterizedTest
    @ValueSource(strings = {"session-a", "session-b"})
    void shouldNotReviveACancelledQueueEntryWhenItsIdIsReused(String replacementSession) {
        ThunderHarness h = new ThunderHarness().worker(1, 100_000);
        for (String id : List.of("first-a", "second-a", "reused", "tail-a")) {
            h.submit(id, "session-a", 100);
        }
        h.aborted("reused");
        h.submit("first-b", "session-b", 100);
        h.submit("reused", replacementSession, 100);

        h.completed("first-a", 100);
        h.completed("second-a", 100);
        assertTrue(h.released("tail-a"));
        assertTrue(h.waiting("reused"));
        h.completed("tail-a", 100);
        h.completed("first-b", 100);
        assertTrue(h.released("reused"));
        h.completed("reused", 100);
        assertTrue(h.state().requests.isEmpty());
        assertTrue(h.state().sessions.isEmpty());
    }

    /** Dynamo: ignored_and_untracked_events_do_not_read_capacity. */
    @Test
    void shouldNotReadCapacityForIgnoredOrUntrackedEvents() {
        ThunderHarness h = new ThunderHarness().worker(1, 1000);
        h.submit("tracked", "a", 10);
        int reads = h.capacityReads;
        h.classifier.onEvent(new ClassifyEvent.Responding("tracked", ThunderHarness.w(1)));
        h.classifier.onEvent(new ClassifyEvent.Responding("anonymous", ThunderHarness.w(1)));
        h.classifier.onEvent(new ClassifyEvent.Sent("anonymous", ThunderHarness.w(1)));
        h.completed("anonymous", 5);
        h.classifier.onEvent(new ClassifyEvent.Aborted("anonymous", Optional.empty(), Optional.empty()));
        assertEquals(reads, h.capacityReads);
        assertTrue(h.request("tracked") != null);
    }

    /** Dynamo: arrival_tombstones_are_compacted_amortized. */
    @Test
    void shouldKeepTheArrivalOrderSmallForManyShortSessions() {
        ThunderHarness h = new ThunderHarness().worker(1, 1000);
        for (int i = 0; i < 2000; i++) {
            h.submitFinal("r" + i, "s" + i, 1);
            assertTrue(h.released("r" + i));
            h.completed("r" + i, 2);
        }
        assertTrue(h.state().arrivalOrderLength() <= 256);
        assertTrue(h.state().isEmpty());
    }

    /** Dynamo: releases_a_large_backlog_without_per_release_linear_removal. */
    @Test
    void shouldReleaseALargeBacklogInOnePassAndCompactTheArrivalOrder() {
        ThunderHarness h = new ThunderHarness().worker(1, 1);
        for (int i = 0; i < 5000; i++) {
            h.submit("r" + i, "s" + i, 1);
        }
        assertEquals(5000, h.state().waitingCount());
        h.worker(1, 1_000_000);
        h.classifier.reconcile();
        for (int i = 0; i < 5000; i++) {
            assertTrue(h.released("r" + i), "r" + i);
        }
        assertEquals(0, h.state().waitingCount());
        assertTrue(h.state().arrivalOrderLength() <= 256);
    }
}
