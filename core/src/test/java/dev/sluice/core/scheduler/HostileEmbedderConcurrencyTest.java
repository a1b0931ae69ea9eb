package dev.sluice.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyEvent;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.DefaultSelectorSettings;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.PolicyClassSpec;
import dev.sluice.core.host.AdmissionListener;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.host.RequestView;
import dev.sluice.core.host.SchedulerObserver;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.router.RouterStatistics;
import dev.sluice.core.select.DefaultWorkerSelector;
import dev.sluice.core.spi.RequestClassifier;
import dev.sluice.core.spi.WorkerSelector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * Several producers submit requests and make hostile embedder calls (null workers, KV events and loads; reports
 * about lifecycles that do not exist) at once against a router on its own scheduler thread whose listener,
 * observer, worker selector and classifier throw {@code Error}s at random (seeded). Every submitted request must
 * get exactly one outcome, every registered lifecycle exactly one terminal event, no producer may hang, and the
 * router must answer a normal request afterwards. The assertions count outcomes, never times; the wait bound is a
 * guard against a hung router only.
 */
class HostileEmbedderConcurrencyTest {
    private static final long SEED = 0x5EED_16_04L;
    private static final int PRODUCERS = 4;
    private static final int PER_PRODUCER = 300;
    private static final Duration GUARD = Duration.ofSeconds(60);

    /** Throws one of the {@code Error}s an embedder's code can throw, one call in {@code oneIn}. */
    static void maybeErr(SplittableRandom random, int oneIn, String where) {
        if (random.nextInt(oneIn) != 0) {
            return;
        }
        switch (random.nextInt(4)) {
            case 0 -> throw new AssertionError(where + " bug");
            case 1 -> throw new StackOverflowError(where + " bug");
            case 2 -> throw new OutOfMemoryError(where + " (simulated)");
            default -> throw new InternalError(where + " bug");
        }
    }

    /** Decides without shared state (listeners are called on producer threads too): one lifecycle in 16. */
    static boolean unlucky(long lifecycleId) {
        return new SplittableRandom(SEED ^ lifecycleId).nextInt(16) == 0;
    }

    /** Scheduler thread only: its random sequence is the test's seed. */
    static final class HostileObserver implements SchedulerObserver {
        final SplittableRandom random = new SplittableRandom(SEED);
        volatile boolean hostile = true;

        private void call(String where) {
            if (hostile) {
                maybeErr(random, 20, where);
            }
        }

        @Override
        public void onArrived(long nowNs, RequestView request) {
            call("onArrived");
        }

        @Override
        public void onEnqueued(long nowNs, RequestView request, PolicyClassSpec policyClass) {
            call("onEnqueued");
        }

        @Override
        public void onDispatched(long nowNs, RequestView request, WorkerWithDpRank worker) {
            call("onDispatched");
        }

        @Override
        public void onRejected(long nowNs, RequestView request, AdmissionError error) {
            call("onRejected");
        }

        @Override
        public void onCompleted(long nowNs, RequestView request, long contextTokens) {
            call("onCompleted");
        }

        @Override
        public void onAborted(long nowNs, RequestView request, Throwable cause) {
            call("onAborted");
        }

        @Override
        public AdmissionError arrivalVeto() {
            call("arrivalVeto");
            return null;
        }
    }

    /** Counts terminal events per lifecycle's request id; classify and onEvent err at random. */
    static final class HostileClassifier implements RequestClassifier {
        final SplittableRandom random = new SplittableRandom(SEED + 1);
        final AtomicLong terminals = new AtomicLong();
        final Map<String, Integer> terminalsById = new ConcurrentHashMap<>();
        volatile boolean hostile = true;

        @Override
        public Classification classify(ClassifyRequest request) {
            if (hostile) {
                maybeErr(random, 20, "classify");
            }
            return Classification.admit(request);
        }

        @Override
        public void onEvent(ClassifyEvent event) {
            if (event.isTerminal()) {
                terminals.incrementAndGet();
                terminalsById.merge(event.requestId(), 1, Integer::sum);
            }
            if (hostile) {
                maybeErr(random, 20, "onEvent");
            }
        }
    }

    /** Exactly one outcome per lifecycle; dispatched ones are handed to the producers to finish. */
    static final class CountingListener implements AdmissionListener {
        final Map<Long, Integer> outcomes = new ConcurrentHashMap<>();
        final List<String> violations = new CopyOnWriteArrayList<>();
        final Queue<Long> toFinish = new ConcurrentLinkedQueue<>();
        final AtomicInteger dispatched = new AtomicInteger();
        volatile boolean hostile = true;

        private void outcome(long lifecycleId, String what) {
            if (outcomes.merge(lifecycleId, 1, Integer::sum) > 1) {
                violations.add("second outcome (" + what + ") for lifecycle " + lifecycleId);
            }
            if (hostile && unlucky(lifecycleId)) {
                throw new AssertionError("listener bug on " + what);
            }
        }

        @Override
        public void onDispatched(long lifecycleId, WorkerWithDpRank worker) {
            dispatched.incrementAndGet();
            toFinish.add(lifecycleId);
            outcome(lifecycleId, "dispatched");
        }

        @Override
        public void onRejected(long lifecycleId, AdmissionError error) {
            outcome(lifecycleId, "rejected " + error.reason());
        }
    }

    @Test
    void shouldGiveEveryRequestOneOutcomeAndServeOnWhateverTheEmbedderThrows() throws Exception {
        HostileObserver observer = new HostileObserver();
        HostileClassifier classifier = new HostileClassifier();
        CountingListener listener = new CountingListener();
        SplittableRandom selectorRandom = new SplittableRandom(SEED + 2);
        RouterContext context = new RouterContext().ringSize(64).observer(observer)
            .classifierFactory(c -> classifier).workerSelector(c -> {
                WorkerSelector real = DefaultWorkerSelector.factory(DefaultSelectorSettings.DEFAULTS).create(c);
                return inputs -> {
                    if (observer.hostile) {
                        maybeErr(selectorRandom, 20, "selector");
                    }
                    return real.select(inputs);
                };
            });
        try (ModelRouter router = ModelRouter.start(context)) {
            router.workerJoined(WorkerWithDpRank.of(1), 1 << 20, OptionalLong.empty());
            router.workerJoined(WorkerWithDpRank.of(2), 1 << 20, OptionalLong.empty());
            List<Long> submitted = new CopyOnWriteArrayList<>();
            List<Throwable> producerFailures = new CopyOnWriteArrayList<>();
            List<Thread> producers = new ArrayList<>();
            for (int p = 0; p < PRODUCERS; p++) {
                int producer = p;
                Thread thread = new Thread(() -> {
                    try {
                        produce(router, listener, producer, submitted);
                    } catch (Throwable t) {
                        producerFailures.add(t);
                    }
                }, "hostile-producer-" + p);
                producers.add(thread);
                thread.start();
            }
            for (Thread producer : producers) {
                producer.join(GUARD.toMillis());
                assertFalse(producer.isAlive(), producer.getName() + " hung in the router's ingress");
            }
            assertEquals(List.of(), producerFailures);
            assertEquals(PRODUCERS * PER_PRODUCER, submitted.size());

            awaitFinishing(router, listener, () -> listener.outcomes.size() == submitted.size()
                && router.stats().live() == 0, "every request's outcome and every lifecycle's end");
            for (long id : submitted) {
                assertEquals(1, listener.outcomes.get(id), "one outcome for lifecycle " + id);
            }
            assertEquals(List.of(), listener.violations);
            RouterStatistics stats = router.stats();
            assertEquals(stats.arrived(), classifier.terminals.get(), "one terminal event per registered lifecycle");
            classifier.terminalsById.forEach((id, n) -> assertEquals(1, n, "terminal events of " + id));
            assertEquals(0, stats.queued());
            assertTrue(stats.arrived() > 0 && listener.dispatched.get() > 0, stats.toString());

            observer.hostile = false;
            classifier.hostile = false;
            listener.hostile = false;
            // Left over: dispatches whose listener erred (those requests were aborted, so finishing them is a no-op).
            listener.toFinish.clear();
            long normal = router.submit(AdmissionRequest.builder("normal").inputTokens(8).build(), listener);
            await(() -> listener.outcomes.containsKey(normal), "the normal request's outcome", router, listener);
            assertEquals(List.of(normal), List.copyOf(listener.toFinish), "the normal request was dispatched");
            router.responding(normal);
            router.completed(normal, 16);
            await(() -> router.stats().live() == 0, "the normal request's end", router, listener);
            assertEquals(1, classifier.terminalsById.get("normal"));
            assertEquals(stats.completed() + 1, router.stats().completed(), "the normal request was served");
        }
    }

    private static void produce(ModelRouter router, CountingListener listener, int producer, List<Long> submitted) {
        SplittableRandom random = new SplittableRandom(SEED + 10 + producer);
        for (int i = 0; i < PER_PRODUCER; i++) {
            String id = "p" + producer + "-" + i;
            submitted.add(router.submit(AdmissionRequest.builder(id).inputTokens(8).build(), listener));
            switch (random.nextInt(6)) {
                case 0 -> assertThrows(NullPointerException.class,
                    () -> router.workerJoined(null, 8192, OptionalLong.empty()));
                case 1 -> assertThrows(NullPointerException.class,
                    () -> router.workerJoined(WorkerWithDpRank.of(9), 8192, null));
                case 2 -> assertThrows(NullPointerException.class, () -> router.workerLeft(null));
                case 3 -> assertThrows(NullPointerException.class, () -> router.kvEvent(null));
                case 4 -> assertThrows(NullPointerException.class, () -> router.workerLoad(null));
                default -> {
                    // Reports about lifecycles that never were (or ended): the router ignores them.
                    long bogus = -1 - random.nextInt(1000);
                    router.responding(bogus);
                    router.completed(bogus);
                    router.aborted(bogus, new IllegalStateException("bogus"));
                    router.retry(bogus);
                }
            }
            finish(router, listener, random);
        }
    }

    /** Ends dispatched requests as their engine would: mostly completed, some aborted. */
    private static void finish(ModelRouter router, CountingListener listener, SplittableRandom random) {
        Long id;
        while ((id = listener.toFinish.poll()) != null) {
            router.responding(id);
            if (random.nextInt(8) == 0) {
                router.aborted(id, new IllegalStateException("client left"));
            } else {
                router.completed(id, 16);
            }
        }
    }

    private static void awaitFinishing(ModelRouter router, CountingListener listener, BooleanSupplier done,
                                       String what) {
        SplittableRandom random = new SplittableRandom(SEED);
        await(() -> {
            finish(router, listener, random);
            return done.getAsBoolean();
        }, what, router, listener);
    }

    /** Waits for the outcome {@code done} names; the guard only turns a hung router into a failure. */
    private static void await(BooleanSupplier done, String what, ModelRouter router, CountingListener listener) {
        long giveUp = System.nanoTime() + GUARD.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > giveUp) {
                throw new AssertionError("not reached within the guard of " + GUARD + ": " + what + "; "
                    + router.stats() + ", outcomes " + listener.outcomes.size());
            }
            LockSupport.parkNanos(1_000_000L);
        }
    }
}
