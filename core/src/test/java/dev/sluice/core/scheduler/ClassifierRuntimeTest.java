package dev.sluice.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyEvent;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.ErrorClass;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.spi.RequestClassifier;
import dev.sluice.core.testing.RecordingClassifier;
import dev.sluice.core.testing.SteppedRouter;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Dynamo's classifier-runtime scenarios (dynamo-tests.md §1.2) against the single-writer router. */
class ClassifierRuntimeTest {

    @Test
    void shouldFailOneRequestAndKeepTheClassifierWhenClassifyThrows() {
        AtomicInteger calls = new AtomicInteger();
        RequestClassifier panicsOnce = new RequestClassifier() {
            @Override
            public Classification classify(ClassifyRequest request) {
                if (calls.incrementAndGet() == 1) {
                    throw new IllegalStateException("synchronous classifier panic");
                }
                return Classification.admit(request);
            }
        };
        try (SteppedRouter r = new SteppedRouter(panicsOnce).worker(1, 8192)) {
            long first = r.submit("a", 10);
            long second = r.submit("b", 10);

            AdmissionError error = r.listener.outcome(first).error();
            assertEquals(500, error.httpStatus(529));
            assertEquals("request classifier failed", error.publicMessage());
            assertTrue(error.diagnostic().contains("synchronous classifier panic"));
            assertTrue(r.listener.outcome(second).dispatched());
            assertEquals(2, calls.get());
            assertEquals(1, r.router.stats().classifierFailures());
        }
    }

    @Test
    void shouldFailOneRequestAndKeepTheClassifierWhenAContinuationThrows() {
        AtomicInteger calls = new AtomicInteger();
        RequestClassifier failsInFuture = new RequestClassifier() {
            @Override
            public Classification classify(ClassifyRequest request) {
                boolean fail = calls.incrementAndGet() == 1;
                return Classification.defer(request, req -> {
                    if (fail) {
                        throw new IllegalStateException("classifier future panic");
                    }
                    return Classification.admit(req);
                });
            }
        };
        try (SteppedRouter r = new SteppedRouter(failsInFuture).worker(1, 8192)) {
            long first = r.submit("a", 10);
            r.stepUntil(() -> r.listener.has(first));
            long second = r.submit("b", 10);
            r.stepUntil(() -> r.listener.has(second));

            assertEquals("request classifier failed", r.listener.outcome(first).error().publicMessage());
            assertTrue(r.listener.outcome(first).error().diagnostic().contains("classifier future panic"));
            assertTrue(r.listener.outcome(second).dispatched());
            assertEquals(2, calls.get());
        }
    }

    @Test
    void shouldHandTheClassifiersOwnErrorToTheClientAndToAborted() {
        AdmissionError rejection = AdmissionError.of(ErrorClass.RATE_LIMITED).diagnostic("tenant over quota")
            .publicMessage("classifier rejected request");
        RecordingClassifier classifier = new RecordingClassifier().deciding(req -> Classification.reject(rejection));
        try (SteppedRouter r = new SteppedRouter(classifier).worker(1, 8192)) {
            long id = r.submit("a", 10);

            assertSame(rejection, r.listener.outcome(id).error());
            assertEquals(429, rejection.httpStatus(529));
            List<ClassifyEvent> events = classifier.events("a");
            assertEquals(1, events.size());
            ClassifyEvent.Aborted aborted = assertInstanceOf(ClassifyEvent.Aborted.class, events.get(0));
            assertSame(rejection, aborted.cause().orElseThrow());
            assertTrue(aborted.worker().isEmpty());
        }
    }

    @Test
    void shouldRejectAClassifierThatReplacesTheLogicalRequest() {
        AtomicReference<ClassifyRequest> previous = new AtomicReference<>();
        RequestClassifier replaces = new RequestClassifier() {
            @Override
            public Classification classify(ClassifyRequest request) {
                ClassifyRequest other = previous.getAndSet(request);
                return Classification.admit(other != null ? other : request);
            }
        };
        try (SteppedRouter r = new SteppedRouter(replaces).worker(1, 8192)) {
            long first = r.submit("a", 10);
            long second = r.submit("b", 10);

            assertTrue(r.listener.outcome(first).dispatched());
            AdmissionError error = r.listener.outcome(second).error();
            assertEquals("request classifier failed", error.publicMessage());
            assertTrue(error.diagnostic().contains("classifier replaced the logical request"));
        }
    }

    @Test
    void shouldRejectADuplicateLiveRequestIdUntilItsLifecycleEnds() {
        try (SteppedRouter r = new SteppedRouter(new RecordingClassifier()).worker(1, 8192)) {
            long first = r.submit("request-1", 10);
            long duplicate = r.submit("request-1", 10);

            AdmissionError error = r.listener.outcome(duplicate).error();
            assertEquals(409, error.httpStatus(529));
            assertEquals("duplicate_request_id", error.reason());

            r.router.completed(first);
            r.step();
            long again = r.submit("request-1", 10);
            assertTrue(r.listener.outcome(again).dispatched());
        }
    }

    @Test
    void shouldPassTheRequestThroughUnchangedByDefault() {
        AtomicReference<String> seen = new AtomicReference<>();
        RequestClassifier passThrough = new RequestClassifier() {
            @Override
            public Classification classify(ClassifyRequest request) {
                Classification decision = RequestClassifier.super.classify(request);
                seen.set(request.requestId() + "|" + request.policyClass() + "|" + request.schedulingCostTokens()
                    + "|" + (request.dueAt() == ClassifyRequest.NO_DEADLINE) + "|"
                    + request.workerSelectionTarget() + "|" + (decision.request() == request));
                return decision;
            }
        };
        try (SteppedRouter r = new SteppedRouter(passThrough).worker(1, 8192)) {
            long id = r.submit(AdmissionRequest.builder("request-1").inputTokens(128).policyClass("latency").build());

            assertEquals("request-1|latency|128|true|null|true", seen.get());
            assertTrue(r.listener.outcome(id).dispatched());
        }
    }

    @Test
    void shouldDeliverEventsWhileAClassificationIsPending() {
        java.util.concurrent.CountDownLatch released = new java.util.concurrent.CountDownLatch(1);
        RequestClassifier waitsForAnEvent = new RequestClassifier() {
            @Override
            public Classification classify(ClassifyRequest request) {
                if (!request.requestId().equals("waiter")) {
                    return Classification.admit(request);
                }
                return Classification.defer(request, req -> {
                    released.await();
                    return Classification.admit(req);
                });
            }

            @Override
            public void onEvent(ClassifyEvent event) {
                if (event instanceof ClassifyEvent.Sent sent && sent.requestId().equals("event-source")) {
                    released.countDown();
                }
            }
        };
        try (SteppedRouter r = new SteppedRouter(waitsForAnEvent).worker(1, 8192)) {
            long waiter = r.submit("waiter", 1);
            assertFalse(r.listener.has(waiter));

            r.submit("event-source", 1);
            r.stepUntil(() -> r.listener.has(waiter));

            assertTrue(r.listener.outcome(waiter).dispatched());
        }
    }

    @Test
    void shouldAbortAPendingClassificationOnceWhenTheClientLeaves() throws Exception {
        AtomicReference<Thread> continuation = new AtomicReference<>();
        java.util.concurrent.CountDownLatch entered = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch interrupted = new java.util.concurrent.CountDownLatch(1);
        RecordingClassifier classifier = new RecordingClassifier().deciding(req -> Classification.defer(req, q -> {
            continuation.set(Thread.currentThread());
            entered.countDown();
            try {
                new java.util.concurrent.CountDownLatch(1).await();
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
            }
            return Classification.admit(q);
        }));
        try (SteppedRouter r = new SteppedRouter(classifier).worker(1, 8192)) {
            long id = r.submit("cancelled", 1);
            entered.await();

            r.router.aborted(id, new java.util.concurrent.CancellationException("client disconnected"));
            r.step();
            interrupted.await();
            r.stepUntil(() -> r.router.stats().deferralsRunning() == 0);

            assertEquals("cancelled", r.listener.outcome(id).error().reason());
            assertEquals(List.of("classify:cancelled", "aborted:cancelled"), classifier.calls());
            assertTrue(continuation.get().isVirtual());
            assertEquals(1, r.router.stats().staleResults());
        }
    }

    @Test
    void shouldDeliverExactlyOneTerminalEventPerLifecycle() {
        RecordingClassifier classifier = new RecordingClassifier();
        try (SteppedRouter r = new SteppedRouter(classifier).worker(7, 8192)) {
            long id = r.submit("request-1", 40);
            r.router.observeContextTokens(id, 40);
            r.router.observeOutputTokens(id, 2);
            r.router.completed(id);
            r.router.aborted(id, null);
            r.router.completed(id);
            r.step();

            List<ClassifyEvent> events = classifier.events("request-1");
            assertEquals(2, events.size());
            assertInstanceOf(ClassifyEvent.Sent.class, events.get(0));
            ClassifyEvent.Completed completed = assertInstanceOf(ClassifyEvent.Completed.class, events.get(1));
            assertEquals(42, completed.contextTokens().orElseThrow());
            assertEquals(7, completed.worker().workerId());
        }
    }

    @Test
    void shouldReportNoContextTokensWhenTheEngineReportedNone() {
        RecordingClassifier classifier = new RecordingClassifier();
        try (SteppedRouter r = new SteppedRouter(classifier).worker(1, 8192)) {
            long id = r.submit("reused", 5);
            r.router.completed(id);
            r.step();

            ClassifyEvent.Completed completed = assertInstanceOf(ClassifyEvent.Completed.class,
                classifier.events("reused").get(1));
            assertTrue(completed.contextTokens().isEmpty());
        }
    }

    @Test
    void shouldDeliverThePreviousTerminalBeforeClassifyingAReusedId() {
        RecordingClassifier classifier = new RecordingClassifier();
        try (SteppedRouter r = new SteppedRouter(classifier).worker(1, 8192)) {
            long first = r.submit("reused", 5);
            // Completion and the next lifecycle's arrival land in the same ring batch.
            r.router.completed(first);
            long second = r.router.submit(AdmissionRequest.builder("reused").inputTokens(5).build(), r.listener);
            r.step();
            r.router.aborted(second, null);
            r.step();

            assertEquals(List.of("classify:reused", "sent:reused", "completed:reused", "classify:reused",
                "sent:reused", "aborted:reused"), classifier.calls());
            ClassifyEvent.Aborted aborted = assertInstanceOf(ClassifyEvent.Aborted.class,
                classifier.events("reused").get(3));
            assertEquals(1, aborted.worker().orElseThrow().workerId());
        }
    }

    @Test
    void shouldRaiseProgressMonotonicallyAcrossRetriesAndResetItForANewLifecycle() {
        AtomicInteger calls = new AtomicInteger();
        AtomicReference<dev.sluice.core.api.RequestProgress> firstProgress = new AtomicReference<>();
        RecordingClassifier classifier = new RecordingClassifier().deciding(req -> {
            calls.incrementAndGet();
            firstProgress.compareAndSet(null, req.progress());
            req.setSchedulingCostTokens(7);
            return Classification.admit(req);
        });
        try (SteppedRouter r = new SteppedRouter(classifier).worker(1, 8192)) {
            long id = r.submit("request-1", 10);
            assertEquals(10, firstProgress.get().contextTokens());
            r.router.observeContextTokens(id, 10);
            r.router.observeOutputTokens(id, 15);
            r.step();
            assertEquals(25, firstProgress.get().contextTokens());

            r.router.retry(id);
            r.step();
            assertEquals(1, calls.get());
            assertEquals(2, r.router.stats().dispatched());
            r.router.observeContextTokens(id, 50);
            r.router.observeContextTokens(id, 30);
            r.step();
            assertEquals(50, firstProgress.get().contextTokens());

            r.router.aborted(id, null);
            r.step();
            firstProgress.set(null);
            long next = r.submit("request-1", 3);
            r.router.observeOutputTokens(next, 4);
            r.step();
            assertEquals(2, calls.get());
            assertEquals(7, firstProgress.get().contextTokens());
        }
    }

    @Test
    void shouldReuseTheCachedClassificationOnRetry() {
        RecordingClassifier classifier = new RecordingClassifier().deciding(req -> {
            req.setSchedulingCostTokens(7);
            req.setWorkerSelectionTarget(dev.sluice.core.api.WorkerWithDpRank.of(2));
            return Classification.admit(req);
        });
        try (SteppedRouter r = new SteppedRouter(classifier).worker(1, 8192).worker(2, 8192)) {
            long id = r.submit("request-1", 10);
            assertEquals(2, r.listener.outcome(id).worker().workerId());
            r.router.retry(id);
            r.step();

            assertEquals(1, classifier.classifyCalls());
            List<ClassifyEvent> events = classifier.events("request-1");
            assertEquals(2, events.size());
            assertEquals(2, assertInstanceOf(ClassifyEvent.Sent.class, events.get(1)).worker().workerId());
        }
    }

    @Test
    void shouldDropAStaleContinuationResultAndClassifyTheReusedIdAfresh() throws Exception {
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        RequestClassifier gated = new RequestClassifier() {
            @Override
            public Classification classify(ClassifyRequest request) {
                int call = calls.incrementAndGet();
                return Classification.defer(request, req -> {
                    if (call == 1) {
                        release.await();
                    }
                    req.setSchedulingCostTokens(call);
                    return Classification.admit(req);
                });
            }
        };
        try (SteppedRouter r = new SteppedRouter(gated).worker(1, 8192)) {
            long stale = r.submit("reused", 5);
            r.router.aborted(stale, null);
            r.step();
            long fresh = r.submit("reused", 5);
            r.stepUntil(() -> r.listener.has(fresh));
            release.countDown();
            r.stepUntil(() -> r.router.stats().staleResults() == 1);

            assertEquals(2, calls.get());
            assertEquals("cancelled", r.listener.outcome(stale).error().reason());
            assertTrue(r.listener.outcome(fresh).dispatched());
            assertEquals(List.of(), r.listener.violations());
        }
    }
}
