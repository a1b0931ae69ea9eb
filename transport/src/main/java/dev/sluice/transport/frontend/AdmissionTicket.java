package dev.sluice.transport.frontend;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.AdmissionListener;
import java.util.concurrent.locks.LockSupport;

/**
 * One request's admission outcome, handed from the scheduler thread to the handler's virtual thread, which parks
 * in {@link #await()} (parking a virtual thread holds no platform thread).
 */
final class AdmissionTicket implements AdmissionListener {
    private final Thread waiter = Thread.currentThread();
    private volatile WorkerWithDpRank worker;
    private volatile AdmissionError error;
    private volatile String policyClass;
    private volatile long waitedNanos;
    private volatile boolean done;

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
