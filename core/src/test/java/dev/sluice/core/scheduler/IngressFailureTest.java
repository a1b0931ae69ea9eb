package dev.sluice.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.ClassifyEvent;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.AdmissionListener;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.host.RequestView;
import dev.sluice.core.host.SchedulerObserver;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.testing.RecordingClassifier;
import dev.sluice.core.testing.SteppedRouter;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * The ingress cannot wedge: a bad argument is refused before a ring slot is claimed, and a message whose handling
 * throws fails only the request it is about; the sequence moves on and the next request is served.
 */
class IngressFailureTest {

    private static AdmissionRequest request(String id) {
        return AdmissionRequest.builder(id).inputTokens(8).build();
    }

    @Test
    void shouldRefuseNullArgumentsBeforeClaimingASlotAndKeepServing() {
        // 16 slots: were a refused call to leave a claimed slot unpublished, every later message would wait behind it.
        try (SteppedRouter r = new SteppedRouter(null, new RouterContext().ringSize(16)).worker(1, 8192)) {
            for (int i = 0; i < 40; i++) {
                assertThrows(NullPointerException.class, () -> r.router.submit(null, r.listener));
                assertThrows(NullPointerException.class, () -> r.router.submit(request("x"), null));
                assertThrows(NullPointerException.class, () -> r.router.workerJoined(null, 8192, OptionalLong.empty()));
                assertThrows(NullPointerException.class,
                    () -> r.router.workerJoined(WorkerWithDpRank.of(2), 8192, null));
                assertThrows(NullPointerException.class, () -> r.router.workerLeft(null));
                assertThrows(NullPointerException.class, () -> r.router.kvEvent(null));
            }
            long served = r.submit("served", 8);
            assertTrue(r.listener.outcome(served).dispatched(), "the router still serves: " + r.listener.inOrder());
            r.router.completed(served);
            r.step();
            assertEquals(1, r.router.stats().completed());
            assertEquals(0, r.router.stats().schedulerErrors());
        }
    }

    @Test
    void shouldFailOnlyTheRequestWhoseHandlingThrowsAndServeTheNext() {
        RecordingClassifier classifier = new RecordingClassifier();
        // An Error escapes the observer guard (it contains RuntimeException and InternalError only).
        SchedulerObserver poisoned = new SchedulerObserver() {
            @Override
            public void onArrived(long nowNs, RequestView request) {
                if (request.requestId().equals("poison")) {
                    throw new AssertionError("observer bug");
                }
            }
        };
        try (SteppedRouter r = new SteppedRouter(classifier, new RouterContext().observer(poisoned)).worker(1, 8192)) {
            long poison = r.submit("poison", 8);
            AdmissionError error = r.listener.outcome(poison).error();
            assertEquals(500, error.httpStatus(529));
            assertEquals("scheduler_failed", error.reason());
            assertFalse(error.publicMessage().contains("observer bug"), "sanitized: " + error.publicMessage());
            assertEquals(1, r.router.stats().schedulerErrors());
            assertEquals(0, r.router.stats().live());
            List<ClassifyEvent> events = classifier.events("poison");
            assertEquals(1, events.size(), "one terminal event: " + events);
            assertInstanceOf(ClassifyEvent.Aborted.class, events.get(0));

            long next = r.submit("next", 8);
            assertTrue(r.listener.outcome(next).dispatched(), "the next request is served: " + r.listener.inOrder());
            assertEquals(List.of(), r.listener.violations());
        }
    }

    @Test
    void shouldAbortADispatchedRequestWhoseListenerThrowsAndReleaseItsWorker() {
        AdmissionListener failing = AdmissionListener.of((worker, id) -> {
            throw new StackOverflowError("listener bug");
        }, (error, id) -> { });
        try (SteppedRouter r = new SteppedRouter(null, new RouterContext()).worker(1, 8192)) {
            r.router.submit(request("first"), failing);
            r.step();
            assertEquals(1, r.router.stats().schedulerErrors());
            assertEquals(1, r.router.stats().aborted());
            assertEquals(0, r.router.stats().live(), "the booking was released and the lifecycle ended");

            long second = r.submit("second", 8);
            assertTrue(r.listener.outcome(second).dispatched());
        }
    }

    @Test
    void shouldRefuseASecondRouterOnTheSameContext() {
        RouterContext context = new RouterContext();
        try (ModelRouter first = ModelRouter.manual(context)) {
            assertEquals("default", first.model());
            IllegalStateException again = assertThrows(IllegalStateException.class,
                () -> ModelRouter.manual(context));
            assertTrue(again.getMessage().contains("already configured a router"), again.getMessage());
        }
    }
}
