package dev.sluice.perf.harness;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.spi.RequestClassifier;
import dev.sluice.perf.baseline.BaselineController;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.OptionalLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An admission controller under test, fresh for each trial: sluice's {@link ModelRouter} on its own scheduler
 * thread, or the conventional {@link BaselineController}. Both classify with the pass-through classifier and
 * dispatch among {@link #WORKERS} workers; {@link #submit} is called by the generator threads concurrently.
 */
interface Target extends AutoCloseable {
    int WORKERS = 8;
    long INPUT_TOKENS = 512;

    /** Submits one request whose outcome goes to {@code slot}. */
    void submit(Pending slot);

    /** The instant engine's completion hook for this controller. */
    Pending.Engine engine();

    /**
     * CPU time the controller's own threads have used so far (ThreadMXBean), in ns: sluice's scheduler thread; 0 for
     * a controller that decides on the callers' threads alone (the generators measure that time).
     */
    default long ownThreadsCpuNs() {
        return 0;
    }

    @Override
    void close();

    /**
     * Creates a fresh controller by name: {@code sluice} (the default idle strategy: spin briefly, then park until
     * woken), {@code sluice-spin} (the scheduler busy-spins: a dedicated core, no wake-up latency),
     * {@code sluice-combine} (an idle scheduler's duty cycle runs on the submitting generator), {@code sluice-locked}
     * (sluice's duty cycle, stepped under a lock on the submitting generator) or {@code baseline}.
     */
    static Target create(String name) {
        return switch (name) {
            case "sluice" -> new Sluice(new RouterContext().model("harness"));
            case "sluice-spin" -> new Sluice(new RouterContext().model("harness")
                .schedulerIdle(RouterContext.SchedulerIdle.SPIN));
            case "sluice-combine" -> new Sluice(new RouterContext().model("harness")
                .schedulerIdle(RouterContext.SchedulerIdle.COMBINE));
            case "sluice-locked" -> new LockedSluice();
            case "baseline" -> new Baseline();
            default -> throw new IllegalArgumentException("unknown target " + name);
        };
    }

    /** sluice: the single-writer scheduler thread fed by the Disruptor ring. */
    final class Sluice implements Target {
        private final ModelRouter router;
        private final Pending.Engine engine;

        Sluice(RouterContext context) {
            router = ModelRouter.start(context);
            engine = (id, worker) -> router.completed(id);
            for (int w = 0; w < WORKERS; w++) {
                router.workerJoined(WorkerWithDpRank.of(w), 8192, OptionalLong.of(4096));
            }
        }

        @Override
        public void submit(Pending slot) {
            router.submit(slot.request, slot);
        }

        @Override
        public Pending.Engine engine() {
            return engine;
        }

        @Override
        public long ownThreadsCpuNs() {
            // The scheduler thread's name (SchedulerAgent.roleName, in a package core does not export).
            String name = "sluice-scheduler-" + router.model();
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            for (Thread thread : Thread.getAllStackTraces().keySet()) {
                if (thread.getName().equals(name)) {
                    return Math.max(0, threads.getThreadCpuTime(thread.threadId()));
                }
            }
            throw new IllegalStateException("no scheduler thread named " + name);
        }

        @Override
        public void close() {
            router.close();
        }
    }

    /**
     * sluice's decision under the baseline's concurrency: a manual router (no scheduler thread, no role to hand over)
     * whose duty cycles each generator runs itself, under one router-wide lock, until nothing is left (its own arrival,
     * then the completion its dispatch callback reported). Same work as {@code sluice-combine}, the baseline's lock:
     * the difference between the two is the design, the difference to {@code baseline} is the work.
     */
    final class LockedSluice implements Target {
        private final ReentrantLock lock = new ReentrantLock();
        private final ModelRouter router = ModelRouter.manual(new RouterContext().model("harness"));
        private final Pending.Engine engine = (id, worker) -> router.completed(id);

        LockedSluice() {
            // Before any generator starts (and Thread.start publishes it to them): no lock needed yet.
            for (int w = 0; w < WORKERS; w++) {
                router.workerJoined(WorkerWithDpRank.of(w), 8192, OptionalLong.of(4096));
            }
            router.runUntilIdle();
        }

        @Override
        public void submit(Pending slot) {
            lock.lock();
            try {
                router.submit(slot.request, slot);
                router.runUntilIdle();
            } finally {
                lock.unlock();
            }
        }

        @Override
        public Pending.Engine engine() {
            return engine;
        }

        @Override
        public void close() {
            router.close();
        }
    }

    /** The baseline: a router-wide lock, a priority queue per class, work done on the caller's thread. */
    final class Baseline implements Target {
        private final BaselineController controller =
            new BaselineController(new RequestClassifier() { }, WORKERS);
        private final Pending.Engine engine = controller::completed;

        @Override
        public void submit(Pending slot) {
            controller.submit(slot.requestId, INPUT_TOKENS, System.nanoTime(), slot);
        }

        @Override
        public Pending.Engine engine() {
            return engine;
        }

        @Override
        public void close() {
        }
    }
}
