package dev.sluice.plugins.thunderagent;

import static dev.sluice.plugins.thunderagent.ThunderHarness.w;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.plugins.testing.FakeRequest;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Pressure pauses at tool boundaries, greedy and forced resume, and the reconcile pass through the classifier. */
class PauseResumeTest {

    /** Dynamo: capacity_growth_resumes_a_pending_program. */
    @Test
    void shouldResumeAWaitingProgramWhenCapacityGrows() {
        ThunderHarness h = new ThunderHarness(Map.of("scheduler_interval_seconds", 0.005)).worker(1, 250);
        h.submit("request-1", "session-a", 100);
        h.sent("request-1", 1);
        h.submit("request-2", "session-b", 100);
        assertTrue(h.waiting("request-2"));
        assertTrue(h.program("session-b").paused);

        h.advance(Duration.ofMillis(5));
        assertTrue(h.waiting("request-2"), "nothing changed yet");
        h.worker(1, 500);
        h.advance(Duration.ofMillis(5));
        assertTrue(h.released("request-2"));
        assertEquals(w(1), h.target("request-2"));
        assertFalse(h.program("session-b").paused);
    }

    /** Dynamo: pressure_pauses_an_acting_program_and_capacity_resumes_it. */
    @Test
    void shouldPauseAnActingProgramUnderPressureAndResumeItsNextTurnWhenRoomFrees() {
        ThunderHarness h = new ThunderHarness(Map.of("scheduler_interval_seconds", 0.05)).worker(1, 500);
        h.submit("request-1", "session-a", 400);
        h.sent("request-1", 1);
        h.completed("request-1", 400);
        assertFalse(h.program("session-a").paused);

        h.advance(Duration.ofMillis(50));
        assertTrue(h.program("session-a").paused, "400 + 100 > 0.95 x 500");
        assertNull(h.program("session-a").assignedWorker);

        h.worker(1, 1000);
        h.submit("request-2", "session-a", 450);
        assertTrue(h.waiting("request-2"), "a paused program's turn waits for a resume");
        h.advance(Duration.ofMillis(50));
        assertTrue(h.released("request-2"));
        assertFalse(h.program("session-a").paused);
    }

    /** Dynamo: missing_capacity_respects_pause_until_timeout. */
    @Test
    void shouldKeepAPausedProgramWaitingWhenCardsVanishUntilTheTimeout() {
        ThunderHarness h = new ThunderHarness(Map.of("resume_timeout_seconds", 0.02,
            "scheduler_interval_seconds", 0.005)).worker(1, 250);
        h.submit("request-1", "session-a", 100);
        h.submit("request-2", "session-b", 100);
        assertTrue(h.waiting("request-2"));

        h.workerWithoutCard(1);
        h.advance(Duration.ofMillis(5));
        h.advance(Duration.ofMillis(5));
        assertTrue(h.waiting("request-2"), "a paused program does not flow through a cold start");
        h.advance(Duration.ofMillis(5));
        h.advance(Duration.ofMillis(5));
        assertTrue(h.released("request-2"));
        assertNull(h.target("request-2"), "no capacity known: released without a target");
    }

    /** Dynamo: timeout_forces_release_on_the_least_loaded_worker. */
    @Test
    void shouldForceATimedOutProgramOntoTheLeastLoadedWorker() {
        ThunderHarness h = new ThunderHarness(Map.of("resume_timeout_seconds", 0.02,
            "scheduler_interval_seconds", 0.01)).worker(1, 100);
        h.submit("request-1", "session-a", 200);
        assertTrue(h.waiting("request-1"));
        h.advance(Duration.ofMillis(10));
        assertTrue(h.waiting("request-1"));
        h.advance(Duration.ofMillis(10));
        assertTrue(h.released("request-1"));
        assertEquals(w(1), h.target("request-1"));
    }

    /** Dynamo: assigned_continuation_releases_before_periodic_pressure. */
    @Test
    void shouldReleaseAContinuationToItsWorkerAtOnceAndMarkItAtTheNextReconcile() {
        ThunderHarness h = new ThunderHarness(Map.of("pause_threshold", 0.5, "pause_target", 0.4,
            "buffer_per_program", 0)).worker(1, 500);
        h.submit("request-0", "session-a", 400);
        h.completed("request-0", 400);
        h.submit("request-1", "session-a", 400);
        assertTrue(h.released("request-1"), "sticky: no capacity check");
        assertEquals(w(1), h.target("request-1"));

        h.classifier.reconcile();
        assertTrue(h.program("session-a").markedForPause);
        assertFalse(h.program("session-a").paused, "a running turn is never preempted");
    }

    /** Dynamo: streamed_progress_updates_capacity_pressure_without_a_state_event. */
    @Test
    void shouldSeeStreamedContextGrowthWithoutAnEvent() {
        ThunderHarness h = new ThunderHarness(Map.of("pause_threshold", 0.5, "pause_target", 0.4,
            "buffer_per_program", 0)).worker(1, 1000);
        FakeRequest request = h.submit("request-1", "session-a", 100);
        assertEquals(100.0, h.state().usage(h.config).get(w(1)));
        request.progressTo(750);
        h.classifier.reconcile();
        assertEquals(750.0, h.state().usage(h.config).get(w(1)));
        assertTrue(h.program("session-a").markedForPause);
    }

    /** Dynamo: pause_sees_a_request_force_resumed_in_the_same_reconcile. */
    @Test
    void shouldMarkAProgramForceResumedInTheSamePass() {
        ThunderHarness h = new ThunderHarness(Map.of("pause_threshold", 0.5, "pause_target", 0.4,
            "buffer_per_program", 0, "resume_timeout_seconds", 1)).worker(1, 1000);
        h.submit("request-1", "session-a", 1500);
        assertTrue(h.waiting("request-1"));
        h.clock.advance(Duration.ofSeconds(2).toNanos());
        Reconciler.Report report = h.classifier.reconcile();
        assertEquals(1, report.forcedResumes());
        assertTrue(h.released("request-1"));
        assertEquals(w(1), h.target("request-1"));
        assertTrue(h.program("session-a").markedForPause);
    }

    /** Dynamo: marked_count_stays_current_after_completion_and_rollback. */
    @Test
    void shouldKeepTheMarkedCountCurrentAfterRollbackAndCompletion() {
        ThunderHarness h = new ThunderHarness(Map.of("buffer_per_program", 0)).worker(1, 100);
        FakeRequest first = h.submit("first", "first", 60);
        h.submit("second", "second", 30);
        assertTrue(h.released("first") && h.released("second"));
        first.progressTo(120);
        h.classifier.reconcile();
        assertEquals(2, h.telemetry().markedForPause());

        h.aborted("first");
        assertEquals(1, h.telemetry().markedForPause());
        h.completed("second", 30);
        assertEquals(0, h.telemetry().markedForPause());
        assertEquals(1, h.telemetry().paused());
    }

    /** Dynamo: timeout_logs_are_aggregated_outside_the_lock_and_unchanged_ticks_are_silent. */
    @Test
    void shouldCountForcedResumesOncePerPassAndReportAnUnchangedPassAsSuch() {
        ThunderHarness h = new ThunderHarness(Map.of("resume_timeout_seconds", 1)).worker(1, 100);
        h.submit("first", "first", 120);
        h.submit("second", "second", 120);
        h.clock.advance(Duration.ofSeconds(2).toNanos());
        Reconciler.Report first = h.classifier.reconcile();
        assertEquals(2, first.forcedResumes());
        assertTrue(first.changed());
        Reconciler.Report second = h.classifier.reconcile();
        assertEquals(new Reconciler.Report(0, false), second);
    }

    @Test
    void shouldHoldNewSessionsBehindPausedOnes() {
        ThunderHarness h = new ThunderHarness().worker(1, 1000);
        h.submit("big", "big", 2000);
        assertTrue(h.program("big").paused);
        h.submit("small", "small", 10);
        assertTrue(h.waiting("small"), "fits, but a paused program came first");
        assertTrue(h.program("small").paused);
    }

    @Test
    void shouldRunTheReconcileTaskOnlyWhileSomethingIsTracked() {
        ThunderHarness h = new ThunderHarness(Map.of("session_retention_seconds", 1)).worker(1, 1000);
        assertEquals(0, h.timers.active());
        h.submit("request-1", "session-a", 10);
        assertTrue(h.classifier.reconciling());
        h.completed("request-1", 20);
        assertTrue(h.classifier.reconciling(), "the retained program still needs expiry");
        h.advance(Duration.ofSeconds(5));
        assertTrue(h.state().isEmpty());
        assertFalse(h.classifier.reconciling());
        assertEquals(0, h.timers.active());
    }
}
