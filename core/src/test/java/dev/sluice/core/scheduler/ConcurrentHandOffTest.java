package dev.sluice.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyEvent;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.AdmissionListener;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.host.RequestView;
import dev.sluice.core.host.SchedulerObserver;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.router.RouterStatistics;
import dev.sluice.core.spi.RequestClassifier;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Cross-thread hand-offs under contention, on a router running its own scheduler thread: many producers on the
 * ingress ring, lifecycle reports from the threads that got the dispatch, and continuations completing on many
 * virtual threads into the inbox. Nothing may be lost or doubled. Run with the default idle strategy and with the
 * combining one, where producers run the duty cycle themselves: there an observer also checks that no two threads
 * are ever inside the scheduler at once and that a plain counter it keeps loses no update (each owner sees the last
 * one's writes). Which threads win the role under the load is up to the OS scheduler (on a loaded machine one
 * producer may run every cycle while the scheduler thread waits for a core), so after it the combining run hands
 * the role over at two points that do not depend on timing: a continuation released only once its producer is back
 * in the test, which no producer is left to run, so the scheduler thread must; and a submit on the idle router,
 * which the submitting thread must run itself.
 */
class ConcurrentHandOffTest {
    private static final int PRODUCERS = 4;
    private static final int PER_PRODUCER = 5_000;
    private static final String GATED = "gated";
    private static final int MAX_SOLO_TRIES = 1_000;

    /** Counts terminal events per request id and flags any event after a terminal one. */
    static final class TerminalCounter implements RequestClassifier {
        final ConcurrentHashMap<String, Integer> terminals = new ConcurrentHashMap<>();
        /** Holds the continuation of the request {@value #GATED} until the test opens it. */
        final CountDownLatch gate = new CountDownLatch(1);
        final List<String> violations = new java.util.concurrent.CopyOnWriteArrayList<>();
        final boolean defer;

        TerminalCounter(boolean defer) {
            this.defer = defer;
        }

        @Override
        public Classification classify(ClassifyRequest request) {
            if (request.requestId().equals(GATED)) {
                return Classification.defer(request, req -> {
                    gate.await();
                    return Classification.admit(req);
                });
            }
            if (!defer) {
                return Classification.admit(request);
            }
            return Classification.defer(request, req -> {
                Thread.yield();
                return Classification.admit(req);
            });
        }

        @Override
        public void onEvent(ClassifyEvent event) {
            if (terminals.containsKey(event.requestId())) {
                violations.add("event after terminal: " + event);
            }
            if (event.isTerminal()) {
                terminals.put(event.requestId(), 1);
            }
        }
    }

    /** Flags two threads inside the scheduler's callbacks at once; counts arrivals in a plain field. */
    static final class SingleWriterObserver implements SchedulerObserver {
        final AtomicInteger inside = new AtomicInteger();
        final AtomicInteger overlaps = new AtomicInteger();
        final java.util.Set<Thread> threads = ConcurrentHashMap.newKeySet();
        final ConcurrentHashMap<String, Thread> arrivedOn = new ConcurrentHashMap<>();
        final ConcurrentHashMap<String, Thread> dispatchedOn = new ConcurrentHashMap<>();
        int arrived;
        int dispatched;

        @Override
        public void onArrived(long nowNs, RequestView request) {
            enter();
            arrived++;
            arrivedOn.put(request.requestId(), Thread.currentThread());
            exit();
        }

        @Override
        public void onDispatched(long nowNs, RequestView request, WorkerWithDpRank worker) {
            enter();
            dispatched++;
            dispatchedOn.put(request.requestId(), Thread.currentThread());
            exit();
        }

        private void enter() {
            if (inside.getAndIncrement() != 0) {
                overlaps.incrementAndGet();
            }
            threads.add(Thread.currentThread());
        }

        private void exit() {
            inside.decrementAndGet();
        }
    }

    private static void runLoad(boolean defer) throws Exception {
        runLoad(defer, RouterContext.SchedulerIdle.WAIT);
    }

    private static void runLoad(boolean defer, RouterContext.SchedulerIdle idle) throws Exception {
        TerminalCounter classifier = new TerminalCounter(defer);
        SingleWriterObserver observer = new SingleWriterObserver();
        AtomicInteger dispatched = new AtomicInteger();
        AtomicInteger rejected = new AtomicInteger();
        CountDownLatch outcomes = new CountDownLatch(PRODUCERS * PER_PRODUCER);
        RouterContext context = new RouterContext().classifierFactory(c -> classifier).ringSize(1 << 12)
            .schedulerIdle(idle).observer(observer);
        try (ModelRouter router = ModelRouter.start(context);
             ExecutorService producers = Executors.newFixedThreadPool(PRODUCERS)) {
            router.workerJoined(WorkerWithDpRank.of(1), 8192, OptionalLong.empty());
            router.workerJoined(WorkerWithDpRank.of(2), 8192, OptionalLong.empty());
            AdmissionListener listener = new AdmissionListener() {
                @Override
                public void onDispatched(long lifecycleId, WorkerWithDpRank worker) {
                    dispatched.incrementAndGet();
                    // The handler reports its lifecycle from another thread, as a frontend does.
                    producers.execute(() -> {
                        router.responding(lifecycleId);
                        router.completed(lifecycleId, 10);
                        outcomes.countDown();
                    });
                }

                @Override
                public void onRejected(long lifecycleId, AdmissionError error) {
                    rejected.incrementAndGet();
                    outcomes.countDown();
                }
            };
            CountDownLatch start = new CountDownLatch(1);
            for (int p = 0; p < PRODUCERS; p++) {
                int producer = p;
                producers.execute(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                    for (int i = 0; i < PER_PRODUCER; i++) {
                        router.submit(AdmissionRequest.builder("p" + producer + "-" + i).inputTokens(16).build(),
                            listener);
                    }
                });
            }
            start.countDown();
            assertTrue(outcomes.await(60, TimeUnit.SECONDS), "every submit gets one outcome");
            awaitIdle(router);
            int handOffs = idle == RouterContext.SchedulerIdle.COMBINE ? handOver(router, classifier, observer) : 0;
            RouterStatistics stats = router.stats();
            assertEquals(PRODUCERS * PER_PRODUCER, dispatched.get() + rejected.get());
            assertEquals(0, stats.live(), "every lifecycle ended");
            assertEquals(dispatched.get() + handOffs, stats.completed());
            assertEquals(stats.arrived(), classifier.terminals.size());
            assertEquals(List.of(), classifier.violations);
            assertEquals(0, observer.overlaps.get(), "two threads in the scheduler at once");
            assertEquals(stats.arrived(), observer.arrived, "an arrival counted by one owner was lost by the next");
            assertEquals(dispatched.get() + handOffs, observer.dispatched);
        }
    }

    /** Waits until every lifecycle has ended (an outcome, not a time; the bound only ends a broken run). */
    private static void awaitIdle(ModelRouter router) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (router.stats().live() > 0 && System.nanoTime() < deadline) {
            Thread.yield();
        }
        assertEquals(0, router.stats().live(), "every lifecycle ended");
    }

    /**
     * On the idle combining router: first a request whose continuation waits until this thread's submit has
     * returned, so its result lands in the inbox when no producer is left to run a cycle and only the scheduler
     * thread can dispatch it; then submits from this thread until one is taken by this thread's own cycle (the
     * scheduler thread, idle, holds the role only for a timer tick now and then, so the first almost always is).
     * Both are dispatched and completed; returns how many.
     */
    private static int handOver(ModelRouter router, TerminalCounter classifier, SingleWriterObserver observer)
        throws InterruptedException {
        Thread self = Thread.currentThread();
        long gated = submitAndAwaitDispatch(router, GATED, classifier.gate::countDown);
        finish(router, gated);
        assertTrue(observer.dispatchedOn.get(GATED).getName().startsWith("sluice-scheduler-"),
            "the scheduler thread ran the cycle that took the continuation: " + observer.dispatchedOn.get(GATED));
        int tries = 0;
        boolean ranHere = false;
        while (!ranHere && tries < MAX_SOLO_TRIES) {
            String requestId = "solo-" + tries++;
            finish(router, submitAndAwaitDispatch(router, requestId, () -> { }));
            ranHere = observer.arrivedOn.get(requestId) == self;
        }
        assertTrue(ranHere, "a producer ran the cycle that took its own submit, in " + tries + " tries");
        return 1 + tries;
    }

    private static long submitAndAwaitDispatch(ModelRouter router, String requestId, Runnable afterSubmit)
        throws InterruptedException {
        CountDownLatch placed = new CountDownLatch(1);
        long id = router.submit(AdmissionRequest.builder(requestId).inputTokens(16).build(), new AdmissionListener() {
            @Override
            public void onDispatched(long lifecycleId, WorkerWithDpRank worker) {
                placed.countDown();
            }

            @Override
            public void onRejected(long lifecycleId, AdmissionError error) {
                throw new AssertionError(requestId + " rejected: " + error);
            }
        });
        afterSubmit.run();
        assertTrue(placed.await(60, TimeUnit.SECONDS), requestId + " dispatched");
        return id;
    }

    private static void finish(ModelRouter router, long lifecycleId) {
        router.responding(lifecycleId);
        router.completed(lifecycleId, 10);
        awaitIdle(router);
    }

    @Test
    void shouldGiveEverySubmitExactlyOneOutcomeUnderManyProducers() throws Exception {
        runLoad(false);
    }

    @Test
    void shouldHandBackEveryContinuationResultFromManyVirtualThreads() throws Exception {
        runLoad(true);
    }

    @Test
    void shouldGiveEverySubmitExactlyOneOutcomeWhenProducersRunTheCycle() throws Exception {
        runLoad(false, RouterContext.SchedulerIdle.COMBINE);
    }

    @Test
    void shouldHandBackEveryContinuationResultWhenProducersRunTheCycle() throws Exception {
        runLoad(true, RouterContext.SchedulerIdle.COMBINE);
    }
}
