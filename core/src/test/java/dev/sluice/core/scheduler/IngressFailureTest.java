package dev.sluice.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.ClassifyEvent;
import dev.sluice.core.api.WorkerSelectorContext;
import dev.sluice.core.api.DefaultSelectorSettings;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.host.AdmissionListener;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.host.SchedulerObserver;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.select.DefaultWorkerSelector;
import dev.sluice.core.testing.RecordingClassifier;
import dev.sluice.core.testing.RecordingListener;
import dev.sluice.core.testing.SteppedRouter;
import dev.sluice.core.testing.TestClocks;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.SplittableRandom;
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
                assertThrows(NullPointerException.class, () -> r.router.workerLoad(null));
                assertThrows(NullPointerException.class, () -> r.router.submit(request("x"), 0L, null));
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
    void shouldConsumeAMessageWhoseHandlingThrowsOnceAndFailOnlyTheRequestItIsAbout() {
        // Straight onto the ring, past ModelRouter's argument checks: what a bug in the scheduler would meet.
        WakeableIdleStrategy wakeable = new WakeableIdleStrategy(1_000_000L);
        IngressProxy ingress = new IngressProxy(16, wakeable);
        RouterCounters counters = new RouterCounters("m");
        RecordingClassifier classifier = new RecordingClassifier();
        WorkerTable workers = new WorkerTable(16, DefaultWorkerSelector.factory(DefaultSelectorSettings.DEFAULTS)
            .create(new WorkerSelectorContext("m", 16, new SplittableRandom(1))));
        SchedulerParts parts = new SchedulerParts("m", TestClocks.started(),
            PolicyProfile.synthetic(OptionalDouble.empty(), QueuePolicy.FCFS), ingress,
            new RouterSignals(wakeable::wake), wakeable, null, counters, workers, new PeriodicTasks(),
            new ClassifierHost(classifier, null, counters), null, SchedulerObserver.NONE, 64, 16, 64, 0);
        SchedulerAgent agent = new SchedulerAgent(parts, null);
        RecordingListener listener = new RecordingListener();
        assertTrue(ingress.tryArrive(1, 0, null, listener), "an arrival whose handling throws");
        ingress.workerJoined(null, 8192, OptionalLong.empty());
        ingress.workerLeft(null);
        ingress.kvEvent(null);
        ingress.workerLoad(null);
        for (int i = 0; i < 100; i++) {
            agent.doWork();
        }
        assertEquals(5, counters.get(RouterCounters.Counter.SCHEDULER_ERRORS), "each poisoned message once");
        AdmissionError error = listener.outcome(1).error();
        assertEquals("scheduler_failed", error.reason());
        assertEquals(500, error.httpStatus(529));
        assertFalse(error.publicMessage().contains("NullPointerException"), "sanitized: " + error.publicMessage());

        ingress.workerJoined(WorkerWithDpRank.of(1), 8192, OptionalLong.empty());
        assertTrue(ingress.tryArrive(2, 0, request("next"), listener));
        while (agent.doWork() > 0) {
            // Until idle.
        }
        assertTrue(listener.outcome(2).dispatched(), "the next request is served: " + listener.inOrder());
        assertEquals(List.of(), listener.violations());
        assertEquals(List.of(), classifier.events("next").stream().filter(ClassifyEvent::isTerminal).toList());
    }

    @Test
    void shouldAbortADispatchedRequestWhoseListenerThrowsAndReleaseItsWorker() {
        AdmissionListener failing = AdmissionListener.of((worker, id) -> {
            throw new StackOverflowError("listener bug");
        }, (error, id) -> { });
        try (SteppedRouter r = new SteppedRouter(null, new RouterContext()).worker(1, 8192)) {
            r.router.submit(request("first"), failing);
            r.step();
            assertEquals(1, r.router.stats().listenerFailures(), "contained by the listener guard, Error or not");
            assertEquals(0, r.router.stats().schedulerErrors());
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
