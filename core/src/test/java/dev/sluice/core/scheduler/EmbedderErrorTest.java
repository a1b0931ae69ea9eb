package dev.sluice.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.ClassifyEvent;
import dev.sluice.core.api.DefaultSelectorSettings;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.PolicyClassSpec;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.host.AdmissionListener;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.host.RequestView;
import dev.sluice.core.host.SchedulerObserver;
import dev.sluice.core.host.WorkerLoad;
import dev.sluice.core.kv.KvEvent;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.select.DefaultWorkerSelector;
import dev.sluice.core.spi.RequestClassifier;
import dev.sluice.core.spi.WorkerSelector;
import dev.sluice.core.testing.RecordingClassifier;
import dev.sluice.core.testing.RecordingListener;
import dev.sluice.core.testing.SteppedRouter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * An {@code Error} (an {@code AssertionError}, a {@code StackOverflowError}) from an embedder's listener, observer,
 * worker selector or periodic task fails at most the request it is about, with exactly one outcome and one
 * terminal event, and the router answers the next request. Agrona's runner and invoker rethrow an {@code Error},
 * so one that reached them would end the scheduler thread, or make every step of a manual router throw.
 */
class EmbedderErrorTest {
    /** One class; a worker of 100 batched tokens is busy with one 100-token prefill, so a second one queues. */
    private static final String ONE_AT_A_TIME = """
        default_policy_family: standard
        uncached_isl_buckets: [{min_tokens: 0, bucket: any}]
        policy_classes:
          - {name: only, policy_family: standard, cache_bucket: any, quantum: 1, prefill_busy_threshold_frac: 0.5}
        """;

    private static RouterContext oneAtATime() throws Exception {
        return new RouterContext().profile(RouterPolicyLoader.parse(ONE_AT_A_TIME, "<inline>").root().orElseThrow());
    }

    private static AdmissionRequest request(String id) {
        return AdmissionRequest.builder(id).inputTokens(100).build();
    }

    /** An observer whose every callback, the veto included, throws an {@code Error}. */
    static final class ThrowingObserver implements SchedulerObserver {
        final AtomicInteger calls = new AtomicInteger();

        private void boom() {
            calls.incrementAndGet();
            throw new AssertionError("observer bug");
        }

        @Override
        public void onArrived(long nowNs, RequestView request) {
            boom();
        }

        @Override
        public void onEnqueued(long nowNs, RequestView request, PolicyClassSpec policyClass) {
            boom();
        }

        @Override
        public void onDispatched(long nowNs, RequestView request, WorkerWithDpRank worker) {
            boom();
        }

        @Override
        public void onCompleted(long nowNs, RequestView request, long contextTokens) {
            boom();
        }

        @Override
        public void onRejected(long nowNs, RequestView request, AdmissionError error) {
            boom();
        }

        @Override
        public void onAborted(long nowNs, RequestView request, Throwable cause) {
            boom();
        }

        @Override
        public void onWorkerJoined(long nowNs, WorkerWithDpRank worker, long max, java.util.OptionalLong blocks) {
            boom();
        }

        @Override
        public void onKvEvent(long nowNs, KvEvent event) {
            boom();
        }

        @Override
        public void onWorkerLoad(long nowNs, WorkerLoad load) {
            boom();
        }

        @Override
        public AdmissionError arrivalVeto() {
            boom();
            return null;
        }
    }

    @Test
    void shouldContainAnObserverErrorInEveryCallbackAndServeEveryRequest() {
        RecordingClassifier classifier = new RecordingClassifier();
        ThrowingObserver observer = new ThrowingObserver();
        try (SteppedRouter r = new SteppedRouter(classifier, new RouterContext().observer(observer)).worker(1, 8192)) {
            r.router.kvEvent(new KvEvent.Cleared(WorkerWithDpRank.of(1), 1));
            r.router.workerLoad(new WorkerLoad(WorkerWithDpRank.of(1), 0, 0, 0));
            long first = r.submit("first", 8);
            long second = r.submit("second", 8);
            assertTrue(r.listener.outcome(first).dispatched(), r.listener.inOrder().toString());
            assertTrue(r.listener.outcome(second).dispatched(), r.listener.inOrder().toString());
            r.router.completed(first);
            r.router.aborted(second, null);
            r.step();
            assertEquals(0, r.router.stats().live());
            assertEquals(1, r.router.stats().completed());
            assertEquals(1, r.router.stats().aborted());
            assertEquals(1, classifier.events("first").stream().filter(ClassifyEvent::isTerminal).count());
            assertEquals(1, classifier.events("second").stream().filter(ClassifyEvent::isTerminal).count());
            assertTrue(observer.calls.get() >= 10, "every callback was called and threw: " + observer.calls);
            assertEquals(0, r.router.stats().schedulerErrors(), "contained by the observer guard, not per message");
            assertEquals(List.of(), r.listener.violations());
        }
    }

    @Test
    void shouldAbortARequestWhoseListenerErrsOnADispatchAnotherRequestsCompletionStarted() throws Exception {
        AdmissionListener erring = AdmissionListener.of((worker, id) -> {
            throw new StackOverflowError("listener bug");
        }, (error, id) -> { });
        try (SteppedRouter r = new SteppedRouter(null, oneAtATime()).worker(1, 100)) {
            long first = r.submit("first", 100);
            long bad = r.router.submit(request("bad"), erring);
            long third = r.router.submit(request("third"), r.listener);
            r.step();
            assertTrue(r.listener.outcome(first).dispatched());
            assertEquals(2, r.router.stats().queued(), "bad and third wait behind first");
            // first's completion frees the worker: bad is dispatched within that message, and its listener errs.
            r.router.completed(first);
            r.step();
            assertEquals(1, r.router.stats().aborted(), "bad ended as aborted, its booking released");
            assertTrue(r.listener.outcome(third).dispatched(), "third went next: " + r.listener.inOrder());
            r.router.completed(third);
            r.step();
            assertEquals(0, r.router.stats().live(), "no lifecycle left behind; bad was " + bad);
            assertEquals(1, r.router.stats().listenerFailures());
        }
    }

    @Test
    void shouldEndAnExpiredRequestWhoseListenerErrsOnItsRejection() throws Exception {
        RecordingListener heard = new RecordingListener();
        AdmissionListener erring = AdmissionListener.of((worker, id) -> heard.onDispatched(id, worker), (e, id) -> {
            heard.onRejected(id, e);
            throw new AssertionError("listener bug");
        });
        RequestClassifier shortBudget = new RequestClassifier() {
            @Override
            public dev.sluice.core.api.Classification classify(dev.sluice.core.api.ClassifyRequest request) {
                if (request.requestId().equals("late")) {
                    request.setDueAt(request.ingressAt() + Duration.ofSeconds(1).toNanos());
                }
                return dev.sluice.core.api.Classification.admit(request);
            }
        };
        try (SteppedRouter r = new SteppedRouter(shortBudget, oneAtATime()).worker(1, 100)) {
            long first = r.submit("first", 100);
            long late = r.router.submit(request("late"), erring);
            r.step();
            assertEquals(1, r.router.stats().queued());
            // The expiry sweep runs at the start of a cycle, outside any message: nothing there may escape.
            r.advance(Duration.ofSeconds(2));
            assertEquals("deadline_exceeded", heard.outcome(late).error().reason(), heard.inOrder().toString());
            assertEquals(1, r.router.stats().live(), "only first is left");
            r.router.completed(first);
            long next = r.submit("next", 100);
            assertTrue(r.listener.outcome(next).dispatched(), r.listener.inOrder().toString());
            assertEquals(List.of(), heard.violations());
        }
    }

    @Test
    void shouldRejectOnlyTheRequestWhoseWorkerSelectionErrs() {
        AtomicInteger selections = new AtomicInteger();
        RouterContext context = new RouterContext().workerSelector(c -> {
            WorkerSelector real = DefaultWorkerSelector.factory(DefaultSelectorSettings.DEFAULTS).create(c);
            return inputs -> {
                if (selections.incrementAndGet() == 1) {
                    throw new StackOverflowError("selector bug");
                }
                return real.select(inputs);
            };
        });
        try (SteppedRouter r = new SteppedRouter(null, context).worker(1, 8192)) {
            long bad = r.submit("bad", 8);
            AdmissionError error = r.listener.outcome(bad).error();
            assertEquals("worker_selection_failed", error.reason());
            assertEquals(500, error.httpStatus(529));
            assertFalse(error.publicMessage().contains("selector bug"), error.publicMessage());
            long next = r.submit("next", 8);
            assertTrue(r.listener.outcome(next).dispatched(), r.listener.inOrder().toString());
            assertEquals(1, r.router.stats().selectorFailures());
            assertEquals(1, r.router.stats().live(), "only next is live");
        }
    }

    @Test
    void shouldRunAnErringPeriodicTaskOncePerIntervalNotEveryCycle() {
        AtomicInteger runs = new AtomicInteger();
        RouterContext context = new RouterContext().classifierFactory(c -> {
            c.timers().every(Duration.ofSeconds(1).toNanos(), () -> {
                runs.incrementAndGet();
                throw new AssertionError("periodic task bug");
            });
            return new RequestClassifier() { };
        });
        try (SteppedRouter r = new SteppedRouter(null, context).worker(1, 8192)) {
            r.advance(Duration.ofSeconds(1));
            for (int i = 0; i < 100; i++) {
                r.router.doWork();
            }
            assertEquals(1, runs.get(), "one run for one interval: the failed run was not re-delivered");
            r.advance(Duration.ofSeconds(1));
            assertEquals(2, runs.get());
            long served = r.submit("served", 8);
            assertTrue(r.listener.outcome(served).dispatched(), r.listener.inOrder().toString());
        }
    }
}
