package dev.sluice.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.testing.RecordingClassifier;
import dev.sluice.core.testing.SteppedRouter;
import org.junit.jupiter.api.Test;

/** Back-pressure is a value: a full ring or a reached limit answers at once, never blocks the producer. */
class BackPressureTest {

    @Test
    void shouldRejectArrivalsWithTheOverloadStatusWhileTheRingIsFull() {
        try (SteppedRouter r = new SteppedRouter(null, new RouterContext().ringSize(16).overloadStatus(429))) {
            r.router.workerJoined(dev.sluice.core.api.WorkerWithDpRank.of(1), 8192, java.util.OptionalLong.empty());
            long[] ids = new long[14];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = r.router.submit(AdmissionRequest.builder("r" + i).inputTokens(1).build(), r.listener);
            }
            // 16 slots, a quarter kept for lifecycle messages, one taken by the worker: 11 arrivals fit.
            AdmissionError refused = r.listener.outcome(ids[11]).error();
            assertEquals("ingress_full", refused.reason());
            assertEquals(429, refused.httpStatus(429));
            assertEquals(3, r.listener.count());

            r.step();
            for (int i = 0; i < 11; i++) {
                assertTrue(r.listener.outcome(ids[i]).dispatched());
            }
            long later = r.submit("later", 1);
            assertTrue(r.listener.outcome(later).dispatched());
        }
    }

    @Test
    void shouldRejectArrivalsBeyondTheLiveLimit() {
        try (SteppedRouter r = new SteppedRouter(null, new RouterContext().maxLiveRequests(2)).worker(1, 8192)) {
            long a = r.submit("a", 1);
            r.submit("b", 1);
            long c = r.submit("c", 1);
            assertEquals("too_many_live_requests", r.listener.outcome(c).error().reason());

            r.router.completed(a);
            r.step();
            assertTrue(r.listener.outcome(r.submit("d", 1)).dispatched());
        }
    }

    @Test
    void shouldRejectDeferralsBeyondTheLimitWithoutStartingAThread() throws Exception {
        java.util.concurrent.CountDownLatch hold = new java.util.concurrent.CountDownLatch(1);
        RecordingClassifier classifier = new RecordingClassifier().deciding(req -> Classification.defer(req, q -> {
            hold.await();
            return Classification.admit(q);
        }));
        try (SteppedRouter r = new SteppedRouter(classifier, new RouterContext().maxDeferrals(1)).worker(1, 8192)) {
            long first = r.submit("a", 1);
            long second = r.submit("b", 1);
            assertEquals("too_many_deferrals", r.listener.outcome(second).error().reason());

            hold.countDown();
            r.stepUntil(() -> r.listener.has(first));
            assertTrue(r.listener.outcome(first).dispatched());
        }
    }

    @Test
    void shouldAnswerStillWaitingRequestsAsUnavailableOnClose() {
        java.util.concurrent.CountDownLatch never = new java.util.concurrent.CountDownLatch(1);
        RecordingClassifier classifier = new RecordingClassifier().deciding(req -> Classification.defer(req, q -> {
            never.await();
            return Classification.admit(q);
        }));
        SteppedRouter r = new SteppedRouter(classifier).worker(1, 8192);
        long waiting = r.submit("waiting", 1);
        r.close();

        assertEquals(503, r.listener.outcome(waiting).error().httpStatus(529));
        assertEquals(1, classifier.events("waiting").size());
        long afterClose = r.router.submit(AdmissionRequest.builder("late").inputTokens(1).build(), r.listener);
        assertEquals("shutting_down", r.listener.outcome(afterClose).error().reason());
    }

    @Test
    void shouldDrainWaitingRequestsButLetDispatchedOnesFinish() {
        dev.sluice.core.config.PolicyProfile queueing = dev.sluice.core.config.PolicyProfile.synthetic(
            java.util.OptionalDouble.of(0.0), dev.sluice.core.config.QueuePolicy.FCFS);
        try (SteppedRouter r = SteppedRouter.withProfile(null, queueing).worker(1, 100)) {
            long running = r.submit("running", 50);
            long queued = r.submit("queued", 50);
            r.router.drain();
            r.step();
            long late = r.submit("late", 1);

            assertEquals("shutting_down", r.listener.outcome(queued).error().reason());
            assertEquals(503, r.listener.outcome(late).error().httpStatus(529));
            assertEquals(1, r.router.stats().live());
            r.router.completed(running);
            r.step();
            assertEquals(0, r.router.stats().live());
            assertEquals(1, r.router.stats().completed());
        }
    }
}
