package dev.sluice.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyEvent;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.ErrorClass;
import dev.sluice.core.api.Wakeup;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.spi.RequestClassifier;
import dev.sluice.core.testing.SteppedRouter;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The park primitive (wait until onEvent says go, or a deadline) and queue deadlines on the manual clock. */
class ParkAndDeadlineTest {

    /** One request per session in flight; later turns park until the running one ends. */
    static final class OnePerSession implements RequestClassifier {
        private final Map<String, ArrayDeque<Wakeup>> waiting = new HashMap<>();
        private final Map<String, String> running = new HashMap<>();
        private final Map<String, String> sessionOf = new HashMap<>();
        private final long budgetNs;

        OnePerSession(long budgetNs) {
            this.budgetNs = budgetNs;
        }

        @Override
        public Classification classify(ClassifyRequest request) {
            String session = request.sessionContext().sessionId();
            sessionOf.put(request.requestId(), session);
            if (!running.containsKey(session)) {
                running.put(session, request.requestId());
                return Classification.admit(request);
            }
            waiting.computeIfAbsent(session, s -> new ArrayDeque<>()).add(request.wakeup());
            return Classification.park(request, request.ingressAt() + budgetNs,
                AdmissionError.of(ErrorClass.CAPACITY_EXHAUSTED).reason("session_busy")
                    .publicMessage("The session is busy; retry later"));
        }

        @Override
        public void onEvent(ClassifyEvent event) {
            String session = sessionOf.remove(event.requestId());
            if (!event.isTerminal() || session == null) {
                if (session != null) {
                    sessionOf.put(event.requestId(), session);
                }
                return;
            }
            if (!event.requestId().equals(running.get(session))) {
                return;
            }
            running.remove(session);
            ArrayDeque<Wakeup> queue = waiting.get(session);
            while (queue != null && !queue.isEmpty()) {
                Wakeup next = queue.poll();
                if (next.admit()) {
                    running.put(session, "woken");
                    return;
                }
            }
        }
    }

    private static AdmissionRequest turn(String id, String session) {
        return AdmissionRequest.builder(id).inputTokens(10)
            .sessionContext(dev.sluice.core.api.SessionContext.of(session)).build();
    }

    @Test
    void shouldParkASecondTurnUntilTheFirstCompletesWithoutAThread() {
        OnePerSession classifier = new OnePerSession(Duration.ofSeconds(30).toNanos());
        try (SteppedRouter r = new SteppedRouter(classifier).worker(1, 8192)) {
            long first = r.submit(turn("t1", "s"));
            long second = r.submit(turn("t2", "s"));
            long other = r.submit(turn("o1", "other"));

            assertTrue(r.listener.outcome(first).dispatched());
            assertFalse(r.listener.has(second));
            assertTrue(r.listener.outcome(other).dispatched());
            assertEquals(0, r.router.stats().deferralsRunning());

            r.router.completed(first);
            r.step();
            assertTrue(r.listener.outcome(second).dispatched());
        }
    }

    @Test
    void shouldAnswerTheParkDeadlineRejectionWhenNoWakeUpComes() {
        OnePerSession classifier = new OnePerSession(Duration.ofSeconds(2).toNanos());
        try (SteppedRouter r = new SteppedRouter(classifier).worker(1, 8192)) {
            r.submit(turn("t1", "s"));
            long second = r.submit(turn("t2", "s"));
            r.advance(Duration.ofMillis(1999));
            assertFalse(r.listener.has(second));

            r.advance(Duration.ofMillis(1));
            AdmissionError error = r.listener.outcome(second).error();
            assertEquals("session_busy", error.reason());
            assertEquals(429, error.httpStatus(429));
            assertEquals(529, error.httpStatus(529));
        }
    }

    @Test
    void shouldAdmitAtTheParkDeadlineWhenNoRejectionIsGiven() {
        RequestClassifier parksForASecond = new RequestClassifier() {
            @Override
            public Classification classify(ClassifyRequest request) {
                return Classification.park(request, request.ingressAt() + Duration.ofSeconds(1).toNanos(), null);
            }
        };
        try (SteppedRouter r = new SteppedRouter(parksForASecond).worker(1, 8192)) {
            long id = r.submit("a", 1);
            r.advance(Duration.ofMillis(999));
            assertFalse(r.listener.has(id));
            r.advance(Duration.ofMillis(1));
            assertTrue(r.listener.outcome(id).dispatched());
        }
    }

    @Test
    void shouldKeepAWakeUpGivenBeforeTheParkWasReturned() {
        RequestClassifier wakesItselfFirst = new RequestClassifier() {
            @Override
            public Classification classify(ClassifyRequest request) {
                assertTrue(request.wakeup().admit());
                assertFalse(request.wakeup().admit());
                return Classification.park(request, ClassifyRequest.NO_DEADLINE, null);
            }
        };
        try (SteppedRouter r = new SteppedRouter(wakesItselfFirst).worker(1, 8192)) {
            long id = r.submit("a", 1);
            assertTrue(r.listener.outcome(id).dispatched());
        }
    }

    @Test
    void shouldRefuseAWakeUpAfterTheParkedClientLeft() {
        java.util.concurrent.atomic.AtomicReference<Wakeup> kept = new java.util.concurrent.atomic.AtomicReference<>();
        RequestClassifier parks = new RequestClassifier() {
            @Override
            public Classification classify(ClassifyRequest request) {
                kept.set(request.wakeup());
                return Classification.park(request, ClassifyRequest.NO_DEADLINE, null);
            }
        };
        try (SteppedRouter r = new SteppedRouter(parks).worker(1, 8192)) {
            long id = r.submit("a", 1);
            r.router.aborted(id, null);
            r.step();
            assertEquals("cancelled", r.listener.outcome(id).error().reason());
            assertFalse(kept.get().admit());
        }
    }

    @Test
    void shouldRejectWithDeadlineExceededWhenTheDeadlineFromIngressHasPassedAtEnqueue() {
        AtomicLong seenIngress = new AtomicLong();
        RequestClassifier budget = new RequestClassifier() {
            @Override
            public Classification classify(ClassifyRequest request) {
                seenIngress.set(request.ingressAt());
                request.setDueAt(request.ingressAt() + Duration.ofSeconds(1).toNanos());
                return Classification.admit(request);
            }
        };
        try (SteppedRouter r = new SteppedRouter(budget).worker(1, 8192)) {
            long ingress = r.clock.nanoTime();
            r.clock.advance(Duration.ofSeconds(2).toNanos());
            long id = r.router.submit(AdmissionRequest.builder("late").inputTokens(4).build(), ingress, r.listener);
            r.step();

            assertEquals(ingress, seenIngress.get());
            AdmissionError error = r.listener.outcome(id).error();
            assertEquals(429, error.httpStatus(529));
            assertEquals("request deadline exceeded", error.publicMessage());
            assertEquals(0, r.router.stats().dispatched());
        }
    }

    @Test
    void shouldExpireAQueuedRequestAtItsDeadlineAndNeverDispatchIt() {
        RequestClassifier oneSecond = new RequestClassifier() {
            @Override
            public Classification classify(ClassifyRequest request) {
                request.setDueAt(request.ingressAt() + Duration.ofSeconds(1).toNanos());
                return Classification.admit(request);
            }
        };
        PolicyProfile queueing = PolicyProfile.synthetic(OptionalDouble.of(0.0), QueuePolicy.FCFS);
        try (SteppedRouter r = SteppedRouter.withProfile(oneSecond, queueing).worker(1, 100)) {
            long busy = r.submit("busy", 50);
            long waiting = r.submit("waiting", 50);
            assertTrue(r.listener.outcome(busy).dispatched());
            assertFalse(r.listener.has(waiting));

            r.advance(Duration.ofMillis(1000));
            assertEquals("deadline_exceeded", r.listener.outcome(waiting).error().reason());
            r.router.responding(busy);
            r.step();
            assertEquals(1, r.router.stats().dispatched());
            assertEquals(1, r.router.stats().expired());
        }
    }

    @Test
    void shouldQueueBehindBusyWorkersAndDispatchWhenPrefillFinishes() {
        PolicyProfile queueing = PolicyProfile.synthetic(OptionalDouble.of(0.5), QueuePolicy.FCFS);
        try (SteppedRouter r = SteppedRouter.withProfile(null, queueing).worker(1, 100)) {
            long first = r.submit("first", 80);
            long second = r.submit("second", 10);
            long third = r.submit("third", 10);
            assertTrue(r.listener.outcome(first).dispatched());
            assertFalse(r.listener.has(second));

            r.router.responding(first);
            r.step();
            assertTrue(r.listener.outcome(second).dispatched());
            assertTrue(r.listener.outcome(third).dispatched());
            assertEquals(2, r.router.stats().dispatched() - 1);
        }
    }

    @Test
    void shouldNeverLetAnArrivalOvertakeTheBacklog() {
        PolicyProfile queueing = PolicyProfile.synthetic(OptionalDouble.of(0.0), QueuePolicy.FCFS);
        try (SteppedRouter r = SteppedRouter.withProfile(null, queueing).worker(1, 100)) {
            long running = r.submit("running", 10);
            long queued = r.submit("queued", 10);
            // The release and a new arrival are handled in one turn: the queued head goes first.
            r.router.responding(running);
            long arrival = r.router.submit(AdmissionRequest.builder("arrival").inputTokens(10).build(), r.listener);
            r.step();

            assertTrue(r.listener.outcome(queued).dispatched());
            assertFalse(r.listener.has(arrival));
        }
    }

    @Test
    void shouldAnswerNoEndpointsWithoutWorkers() {
        try (SteppedRouter r = new SteppedRouter(null)) {
            long id = r.submit("a", 10);
            AdmissionError error = r.listener.outcome(id).error();
            assertEquals(503, error.httpStatus(529));
            assertEquals("no_endpoints", error.reason());
        }
    }
}
