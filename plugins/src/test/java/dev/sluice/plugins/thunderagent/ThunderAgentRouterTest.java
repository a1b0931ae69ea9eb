package dev.sluice.plugins.thunderagent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.SessionContext;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.spi.RequestClassifierFactory;
import dev.sluice.core.router.RouterPlugins;
import dev.sluice.core.testing.SteppedRouter;
import java.time.Duration;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** ThunderAgent inside a real (stepped) model router: parks, wake-ups, Sent events and the periodic reconcile. */
class ThunderAgentRouterTest {
    private static final WorkerWithDpRank W1 = WorkerWithDpRank.of(1);

    private static SteppedRouter router(String parameters) throws Exception {
        RouterPlugins registry = RouterPlugins.loadCatalogs(ThunderAgentRouterTest.class
            .getClassLoader());
        RequestClassifierFactory factory = registry.resolveRequestClassifier(RouterPolicyLoader.parse(
            "request_classifier:\n  type: thunderagent\n" + parameters, "thunderagent.yaml").requestClassifier())
            .orElseThrow();
        return new SteppedRouter(null, new RouterContext().blockSize(64).classifierFactory(factory));
    }

    private static AdmissionRequest turn(String id, String session, long tokens) {
        AdmissionRequest.Builder builder = AdmissionRequest.builder(id).inputTokens(tokens);
        return (session == null ? builder : builder.sessionContext(SessionContext.of(session))).build();
    }

    /** Dynamo: shipped_catalog_serializes_sessions_and_releases_them_after_abort. */
    @Test
    void shouldSerializeASessionPassAnonymousTrafficAndReleaseTheNextTurnAfterAnAbort() throws Exception {
        try (SteppedRouter r = router("")) {
            r.router.workerJoined(W1, 4096, OptionalLong.of(128));
            r.step();
            long first = r.submit(turn("first", "session", 64));
            assertEquals(W1, r.listener.outcome(first).worker());
            long second = r.submit(turn("second", "session", 64));
            assertFalse(r.listener.has(second), "one turn per session");
            long anonymous = r.submit(turn("anonymous", null, 64));
            assertTrue(r.listener.outcome(anonymous).dispatched(), "sessionless traffic passes through");
            r.router.completed(anonymous);

            r.router.aborted(first, null);
            r.step();
            assertEquals(W1, r.listener.outcome(second).worker());
            r.router.completed(second, 80);
            r.step();
            long third = r.submit(turn("third", "session", 64));
            assertTrue(r.listener.outcome(third).dispatched());
            assertEquals(0, r.router.stats().deferralsRunning(), "waiting held no thread");
        }
    }

    @Test
    void shouldResumeAParkedSessionFromTheReconcileTimerWhenCapacityGrows() throws Exception {
        try (SteppedRouter r = router("  parameters:\n    scheduler_interval_seconds: 1\n")) {
            r.router.workerJoined(W1, 4096, OptionalLong.of(4));
            r.step();
            long a = r.submit(turn("a", "session-a", 100));
            assertTrue(r.listener.outcome(a).dispatched(), "100 + buffer 100 fits 256 tokens");
            long b = r.submit(turn("b", "session-b", 100));
            assertFalse(r.listener.has(b));

            r.advance(Duration.ofSeconds(1));
            assertFalse(r.listener.has(b));
            r.router.workerJoined(W1, 4096, OptionalLong.of(16));
            r.advance(Duration.ofSeconds(1));
            assertEquals(W1, r.listener.outcome(b).worker());
        }
    }

    @Test
    void shouldRollBackAParkedTurnWhenItsClientLeaves() throws Exception {
        try (SteppedRouter r = router("")) {
            r.router.workerJoined(W1, 4096, OptionalLong.of(128));
            r.step();
            r.submit(turn("first", "session-a", 64));
            long gone = r.submit(turn("gone", "session-b", 100_000));
            ThunderAgentClassifier classifier = (ThunderAgentClassifier) r.router.classifier();
            assertTrue(classifier.state().programs.get("session-b").paused);

            r.router.aborted(gone, null);
            r.step();
            assertEquals("cancelled", r.listener.outcome(gone).error().reason());
            assertNull(classifier.state().programs.get("session-b"));
            assertNull(classifier.state().requests.get("gone"));
        }
    }

    @Test
    void shouldTargetTheProgramsWorkerForAContinuation() throws Exception {
        try (SteppedRouter r = router("")) {
            r.router.workerJoined(WorkerWithDpRank.of(1), 4096, OptionalLong.of(128));
            r.router.workerJoined(WorkerWithDpRank.of(2), 4096, OptionalLong.of(128));
            r.step();
            long first = r.submit(turn("first", "s", 64));
            WorkerWithDpRank placed = r.listener.outcome(first).worker();
            r.router.completed(first, 200);
            r.step();
            // Sessionless work keeps the session's worker busier, so plain least-loaded placement would move on.
            long busy = r.submit(turn("busy", null, 2000));
            assertEquals(placed, r.listener.outcome(busy).worker());
            long next = r.submit(turn("next", "s", 300));
            assertEquals(placed, r.listener.outcome(next).worker());
        }
    }
}
