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
    private volatile boolean done;

    @Override
    public void onDispatched(long lifecycleId, WorkerWithDpRank dispatchedTo) {
        worker = dispatchedTo;
        done = true;
        LockSupport.unpark(waiter);
    }

    @Override
    public void onRejected(long lifecycleId, AdmissionError rejection) {
        error = rejection;
        done = true;
        LockSupport.unpark(waiter);
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
