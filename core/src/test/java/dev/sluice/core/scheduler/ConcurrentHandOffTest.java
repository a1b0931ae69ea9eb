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
 * one's writes).
 */
class ConcurrentHandOffTest {
    private static final int PRODUCERS = 4;
    private static final int PER_PRODUCER = 5_000;

    /** Counts terminal events per request id and flags any event after a terminal one. */
    static final class TerminalCounter implements RequestClassifier {
        final ConcurrentHashMap<String, Integer> terminals = new ConcurrentHashMap<>();
        final List<String> violations = new java.util.concurrent.CopyOnWriteArrayList<>();
        final boolean defer;

        TerminalCounter(boolean defer) {
            this.defer = defer;
        }

        @Override
        public Classification classify(ClassifyRequest request) {
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
        int arrived;
        int dispatched;

        @Override
        public void onArrived(long nowNs, RequestView request) {
            enter();
            arrived++;
            exit();
        }

        @Override
        public void onDispatched(long nowNs, RequestView request, WorkerWithDpRank worker) {
            enter();
            dispatched++;
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
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (router.stats().live() > 0 && System.nanoTime() < deadline) {
                Thread.yield();
            }
            RouterStatistics stats = router.stats();
            assertEquals(PRODUCERS * PER_PRODUCER, dispatched.get() + rejected.get());
            assertEquals(0, stats.live(), "every lifecycle ended");
            assertEquals(dispatched.get(), stats.completed());
            assertEquals(stats.arrived(), classifier.terminals.size());
            assertEquals(List.of(), classifier.violations);
            assertEquals(0, observer.overlaps.get(), "two threads in the scheduler at once");
            assertEquals(stats.arrived(), observer.arrived, "an arrival counted by one owner was lost by the next");
            assertEquals(dispatched.get(), observer.dispatched);
            if (idle == RouterContext.SchedulerIdle.COMBINE) {
                assertTrue(observer.threads.size() > 1, "producers ran the cycle: " + observer.threads);
            }
        }
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
