package dev.sluice.transport.frontend;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.AdmissionListener;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * One request's admission outcome, handed from the scheduler thread to the handler's virtual thread, which parks
 * in {@link #await()} (parking a virtual thread holds no platform thread). After dispatch it decides, atomically,
 * between a preemption by the router and the engine's first response item: whichever comes first wins, so a
 * request that has produced a byte is never preempted.
 */
final class AdmissionTicket implements AdmissionListener {
    private final Thread waiter = Thread.currentThread();
    private volatile WorkerWithDpRank worker;
    private volatile AdmissionError error;
    private volatile String policyClass;
    private volatile long waitedNanos;
    private volatile boolean done;
    private static final int OPEN = 0;
    private static final int STREAMING = 1;
    private static final int PREEMPTED = 2;
    private final AtomicInteger response = new AtomicInteger(OPEN);
    private volatile AdmissionError preemption;
    private volatile Runnable onPreempted;

    @Override
    public void onDispatched(long lifecycleId, WorkerWithDpRank dispatchedTo) {
        onDispatched(lifecycleId, dispatchedTo, null, 0);
    }

    @Override
    public void onDispatched(long lifecycleId, WorkerWithDpRank dispatchedTo, String admittedUnder, long waited) {
        worker = dispatchedTo;
        policyClass = admittedUnder;
        waitedNanos = waited;
        done = true;
        LockSupport.unpark(waiter);
    }

    @Override
    public void onRejected(long lifecycleId, AdmissionError rejection) {
        onRejected(lifecycleId, rejection, null);
    }

    @Override
    public void onRejected(long lifecycleId, AdmissionError rejection, String rejectedIn) {
        error = rejection;
        policyClass = rejectedIn;
        done = true;
        LockSupport.unpark(waiter);
    }

    /** The router wants the capacity back: granted unless the engine's first item came first (scheduler thread). */
    @Override
    public boolean onPreempted(long lifecycleId, AdmissionError cause) {
        // Set first: whoever sees PREEMPTED sees the error. Read only through preemption(), which checks the state.
        preemption = cause;
        if (!response.compareAndSet(OPEN, PREEMPTED)) {
            return false;
        }
        Runnable hook = onPreempted;
        if (hook != null) {
            hook.run();
        }
        return true;
    }

    /** Claims the response for the engine's first item; false once preempted (the item is dropped). */
    boolean claimStreaming() {
        return response.compareAndSet(OPEN, STREAMING) || response.get() == STREAMING;
    }

    /** Runs {@code hook} on preemption, or now if it already happened; the hook must be idempotent. */
    void whenPreempted(Runnable hook) {
        onPreempted = hook;
        if (response.get() == PREEMPTED) {
            hook.run();
        }
    }

    /** The router's {@code preempted} error, or {@code null} while the request was not preempted. */
    AdmissionError preemption() {
        return response.get() == PREEMPTED ? preemption : null;
    }

    /** The policy class of the decision, or {@code null} when there was none. */
    String policyClass() {
        return policyClass;
    }

    /** From the request's arrival at the router to its dispatch; 0 when rejected. */
    long waitedNanos() {
        return waitedNanos;
    }

    /** Waits for the outcome; interrupted when the server shuts down under it. */
    void await() throws InterruptedException {
        while (!done) {
            LockSupport.park(this);
            if (Thread.interrupted()) {
                throw new InterruptedException("admission wait interrupted");
            }
        }
    }

    /** The worker, or {@code null} when rejected. */
    WorkerWithDpRank worker() {
        return worker;
    }

    /** The rejection, or {@code null} when dispatched. */
    AdmissionError error() {
        return error;
    }
}
