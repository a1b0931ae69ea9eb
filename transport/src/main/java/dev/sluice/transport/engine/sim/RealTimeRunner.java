package dev.sluice.transport.engine.sim;

import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives one {@link SimulatedWorker} in real time on a thread of its own (a platform daemon thread named
 * {@code sluice-sim-worker-ID}): it applies posted requests, runs the pass boundaries that are due, and parks until
 * the next boundary or until a submission or cancellation unparks it. Listener callbacks and KV events therefore
 * come from this thread. Time is {@link System#nanoTime()} since the runner started; a runner that falls behind
 * runs the overdue boundaries at once, as the mocker subtracts its own compute time from each pass's sleep.
 * {@link #close} closes the worker, lets the thread fail the requests still running and joins it. Idempotent.
 */
public final class RealTimeRunner implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RealTimeRunner.class);

    private final SimulatedWorker worker;
    private final Thread thread;
    private final long originNs = System.nanoTime();

    /** Starts driving {@code worker}. */
    public RealTimeRunner(SimulatedWorker worker) {
        this.worker = worker;
        this.thread = Thread.ofPlatform().daemon().name("sluice-sim-worker-" + worker.workerId())
            .unstarted(this::run);
        worker.wakeUpWith(() -> LockSupport.unpark(thread));
        thread.start();
    }

    private void run() {
        while (true) {
            step();
            if (worker.isClosed()) {
                step();
                return;
            }
            long next = worker.nextEventAt();
            if (next == RankEngine.IDLE) {
                LockSupport.park(this);
            } else {
                long waitNs = next - (System.nanoTime() - originNs);
                if (waitNs > 0) {
                    LockSupport.parkNanos(this, waitNs);
                }
            }
        }
    }

    private void step() {
        try {
            worker.doWork(System.nanoTime() - originNs);
        } catch (RuntimeException e) {
            // A defect in one step must not silently stop every later request of this worker.
            LOG.error("simulated worker {} failed a step", worker.workerId(), e);
        }
    }

    @Override
    public void close() {
        worker.close();
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
