package dev.sluice.perf.harness;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.Wakeup;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.AdmissionListener;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.spi.RequestClassifier;
import dev.sluice.perf.baseline.BaselineController;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Parked-request scale: holds N requests undecided at once (a) parked with {@link Classification#park} (no thread),
 * (b) deferred to a continuation blocked on a virtual thread, (c) in the baseline, one platform thread blocked per
 * waiting request (capped lower: each needs a native stack and memory maps). Measures heap and RSS per waiting
 * request and platform threads in use, then releases them all and checks that every one is dispatched. Each request
 * has its own id and {@code AdmissionRequest} (as from a frontend), counted in the heap per request.
 *
 * <p>Usage: {@code ParkedScale [--count 100000] [--baseline-count 10000]}; prints a Markdown table on stdout.
 * Runs its phases one after another on the calling thread; run it in a fresh JVM so heap figures are clean.
 */
public final class ParkedScale {
    private static final AtomicLong REJECTED = new AtomicLong();
    private static final long TIMEOUT = TimeUnit.SECONDS.toNanos(30);

    private ParkedScale() {
    }

    public static void main(String[] args) throws Exception {
        int count = 100_000;
        int baselineCount = 10_000;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--count" -> count = Integer.parseInt(args[i + 1]);
                case "--baseline-count" -> baselineCount = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        System.out.println("| mode | waiting at once | heap / waiting request | RSS / waiting request | "
            + "platform threads while waiting (idle) | all dispatched after release | release → all dispatched |");
        System.out.println("| --- | ---: | ---: | ---: | ---: | --- | ---: |");
        System.out.println(sluice(count, false));
        System.out.println(sluice(count, true));
        System.out.println(baseline(baselineCount));
    }

    /** (a) park, or (b) defer on virtual threads, {@code count} requests in a fresh router. */
    private static String sluice(int count, boolean defer) throws InterruptedException {
        Wakeup[] wakeups = new Wakeup[count];
        CountDownLatch gate = new CountDownLatch(1);
        AtomicLong waiting = new AtomicLong();
        RequestClassifier classifier = new RequestClassifier() {
            private int next;

            @Override
            public Classification classify(ClassifyRequest request) {
                if (defer) {
                    waiting.incrementAndGet();
                    return Classification.defer(request, r -> {
                        gate.await();
                        return Classification.admit(r);
                    });
                }
                wakeups[next++] = request.wakeup();
                waiting.incrementAndGet();
                return Classification.park(request, ClassifyRequest.NO_DEADLINE, null);
            }
        };
        Sample idle = Sample.take();
        AtomicLong dispatched = new AtomicLong();
        try (ModelRouter router = ModelRouter.start(new RouterContext().model("parked")
                .classifierFactory(context -> classifier).maxLiveRequests(count * 2).maxDeferrals(count * 2))) {
            router.workerJoined(WorkerWithDpRank.of(0), 8192, OptionalLong.of(4096));
            AdmissionListener listener = counting(dispatched, router);
            Sample routerIdle = Sample.take();
            for (int i = 0; i < count; i++) {
                while (waiting.get() + REJECTED.get() < i - 4096) {
                    Thread.onSpinWait();
                }
                router.submit(AdmissionRequest.builder("p" + i).inputTokens(16).build(), listener);
            }
            awaitAtLeast(waiting, count);
            Sample full = Sample.take();
            long start = System.nanoTime();
            if (defer) {
                gate.countDown();
            } else {
                for (Wakeup wakeup : wakeups) {
                    wakeup.admit();
                }
            }
            boolean all = awaitAtLeast(dispatched, count);
            System.err.println("parked-scale: " + router.stats());
            long releaseMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            return row(defer ? "sluice: deferred, continuation blocked on a virtual thread"
                : "sluice: parked with `Classification.park`", count, routerIdle, full, idle, all && dispatched.get()
                == count, releaseMillis);
        }
    }

    /** (c) the baseline: a platform thread blocked per waiting request. */
    private static String baseline(int count) throws InterruptedException {
        CountDownLatch gate = new CountDownLatch(1);
        AtomicLong waiting = new AtomicLong();
        RequestClassifier classifier = new RequestClassifier() {
            @Override
            public Classification classify(ClassifyRequest request) {
                return Classification.defer(request, r -> {
                    waiting.incrementAndGet();
                    gate.await();
                    return Classification.admit(r);
                });
            }
        };
        Sample idle = Sample.take();
        BaselineController controller = new BaselineController(classifier, 1);
        AtomicLong dispatched = new AtomicLong();
        BaselineController.Listener listener = new BaselineController.Listener() {
            @Override
            public void onDispatched(long id, WorkerWithDpRank worker) {
                dispatched.incrementAndGet();
                controller.completed(id, worker);
            }

            @Override
            public void onRejected(long id, AdmissionError error) {
            }
        };
        for (int i = 0; i < count; i++) {
            controller.submit("p" + i, 16, System.nanoTime(), listener);
        }
        awaitAtLeast(waiting, count);
        Sample full = Sample.take();
        long start = System.nanoTime();
        gate.countDown();
        boolean all = awaitAtLeast(dispatched, count);
        long releaseMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        return row("baseline: a platform thread blocked per waiting request", count, idle, full, idle,
            all && dispatched.get() == count, releaseMillis);
    }

    private static AdmissionListener counting(AtomicLong dispatched, ModelRouter router) {
        return AdmissionListener.of((worker, id) -> {
            dispatched.incrementAndGet();
            router.completed(id);
        }, (error, id) -> {
            if (REJECTED.getAndIncrement() == 0) {
                System.err.println("parked-scale: first rejection: " + error);
            }
        });
    }

    private static boolean awaitAtLeast(AtomicLong counter, long target) throws InterruptedException {
        long until = System.nanoTime() + TIMEOUT;
        while (counter.get() < target && System.nanoTime() < until) {
            Thread.sleep(5);
        }
        return counter.get() >= target;
    }

    private static String row(String mode, int count, Sample before, Sample full, Sample idle, boolean all,
                              long releaseMillis) {
        return String.format(Locale.ROOT, "| %s | %,d | %,.0f B | %,.0f B | %,d (%,d) | %s | %,d ms |", mode, count,
            (full.heapUsed() - before.heapUsed()) / (double) count, (full.rss() - before.rss()) / (double) count,
            full.platformThreads(), idle.platformThreads(), all ? "yes" : "NO", releaseMillis);
    }
}
