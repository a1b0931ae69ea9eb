package dev.sluice.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyEvent;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.ErrorClass;
import dev.sluice.core.api.Wakeup;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.testing.RecordingClassifier;
import dev.sluice.core.testing.SteppedRouter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The classification timeout on the manual clock: a deferral or park that outlasts it is answered 504
 * {@code classifier_timeout}, once, and the classifier sees one {@code Aborted}; without a timeout nothing changes.
 */
class ClassificationTimeoutTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    private static SteppedRouter router(RecordingClassifier classifier, Duration timeout) {
        return new SteppedRouter(classifier, new RouterContext().classificationTimeout(timeout)).worker(1, 8192);
    }

    private static void assertTimedOut(SteppedRouter r, RecordingClassifier classifier, long id, String requestId) {
        AdmissionError error = r.listener.outcome(id).error();
        assertEquals("classifier_timeout", error.reason());
        assertEquals(ErrorClass.DEADLINE_EXCEEDED, error.errorClass());
        assertEquals(504, error.httpStatus(529));
        assertEquals("request classification timed out", error.publicMessage());
        List<ClassifyEvent> events = classifier.events(requestId);
        assertEquals(1, events.size(), "one terminal event: " + events);
        assertInstanceOf(ClassifyEvent.Aborted.class, events.get(0));
        assertEquals(1, r.router.stats().classifierTimeouts());
        assertEquals(0, r.router.stats().live());
        assertTrue(r.listener.violations().isEmpty(), r.listener.violations().toString());
    }

    @Test
    void shouldTimeOutAContinuationThatNeverFinishesAndInterruptIt() {
        CountDownLatch never = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        RecordingClassifier classifier = new RecordingClassifier().deciding(request ->
            Classification.defer(request, req -> {
                try {
                    never.await();
                } catch (InterruptedException e) {
                    interrupted.set(true);
                    throw e;
                }
                return Classification.admit(req);
            }));
        try (SteppedRouter r = router(classifier, TIMEOUT)) {
            long id = r.submit("slow", 10);
            r.advance(TIMEOUT.minusMillis(1));
            assertFalse(r.listener.has(id), "still within the timeout");

            r.advance(Duration.ofMillis(1));
            assertTimedOut(r, classifier, id, "slow");
            r.stepUntil(() -> r.router.stats().deferralsRunning() == 0);
            assertTrue(interrupted.get(), "the continuation was interrupted");
            assertEquals(1, r.router.stats().staleResults(), "its late result was dropped");
        }
    }

    @Test
    void shouldAdmitAContinuationThatFinishesInTime() {
        CountDownLatch go = new CountDownLatch(1);
        RecordingClassifier classifier = new RecordingClassifier().deciding(request ->
            Classification.defer(request, req -> {
                go.await();
                return Classification.admit(req);
            }));
        try (SteppedRouter r = router(classifier, TIMEOUT)) {
            long id = r.submit("quick", 10);
            r.advance(Duration.ofSeconds(1));
            go.countDown();
            r.stepUntil(() -> r.listener.has(id));
            assertTrue(r.listener.outcome(id).dispatched());

            r.advance(TIMEOUT.multipliedBy(2));
            assertEquals(0, r.router.stats().classifierTimeouts());
        }
    }

    @Test
    void shouldTimeOutAParkWithoutADeadline() {
        RecordingClassifier classifier = new RecordingClassifier().deciding(request -> {
            request.wakeup();
            return Classification.park(request, ClassifyRequest.NO_DEADLINE, null);
        });
        try (SteppedRouter r = router(classifier, TIMEOUT)) {
            long id = r.submit("parked", 10);
            r.advance(TIMEOUT.minusMillis(1));
            assertFalse(r.listener.has(id));
            assertEquals(1, r.router.stats().parkedNow());

            r.advance(Duration.ofMillis(1));
            assertTimedOut(r, classifier, id, "parked");
            assertEquals(0, r.router.stats().parkedNow());
        }
    }

    @Test
    void shouldLetAnEarlierParkDeadlineDecide() {
        RecordingClassifier classifier = new RecordingClassifier().deciding(request ->
            Classification.park(request, request.ingressAt() + Duration.ofSeconds(1).toNanos(), null));
        try (SteppedRouter r = router(classifier, TIMEOUT)) {
            long id = r.submit("short-park", 10);
            r.advance(Duration.ofSeconds(1));
            assertTrue(r.listener.outcome(id).dispatched(), "the park's own deadline admits it");
            assertEquals(0, r.router.stats().classifierTimeouts());
        }
    }

    @Test
    void shouldTimeOutALaterParkDeadline() {
        RecordingClassifier classifier = new RecordingClassifier().deciding(request ->
            Classification.park(request, request.ingressAt() + Duration.ofSeconds(60).toNanos(), null));
        try (SteppedRouter r = router(classifier, TIMEOUT)) {
            long id = r.submit("long-park", 10);
            r.advance(TIMEOUT);
            assertTimedOut(r, classifier, id, "long-park");
        }
    }

    @Test
    void shouldIgnoreAWakeUpAfterTheTimeout() {
        AtomicReference<Wakeup> wakeup = new AtomicReference<>();
        RecordingClassifier classifier = new RecordingClassifier().deciding(request -> {
            wakeup.set(request.wakeup());
            return Classification.park(request, ClassifyRequest.NO_DEADLINE, null);
        });
        try (SteppedRouter r = router(classifier, TIMEOUT)) {
            long id = r.submit("late", 10);
            r.advance(TIMEOUT);
            assertTimedOut(r, classifier, id, "late");

            assertFalse(wakeup.get().admit(), "a wake-up after the timeout finds nothing to wake");
            r.step();
            assertEquals(1, r.router.stats().rejected());
        }
    }

    @Test
    void shouldKeepParkedRequestsForeverWithoutATimeout() {
        RecordingClassifier classifier = new RecordingClassifier().deciding(request -> {
            request.wakeup();
            return Classification.park(request, ClassifyRequest.NO_DEADLINE, null);
        });
        try (SteppedRouter r = router(classifier, Duration.ZERO)) {
            long id = r.submit("patient", 10);
            r.advance(Duration.ofHours(1));
            assertFalse(r.listener.has(id));
            assertEquals(1, r.router.stats().parkedNow());
        }
    }

    @Test
    void shouldRefuseANegativeTimeout() {
        RouterContext context = new RouterContext();
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
            () -> context.classificationTimeout(Duration.ofMillis(-1)));
        assertEquals("the classification timeout must not be negative, was PT-0.001S", e.getMessage());
    }
}
