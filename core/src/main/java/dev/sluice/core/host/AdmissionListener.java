package dev.sluice.core.host;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.WorkerWithDpRank;

/**
 * Receives the admission outcome of one submitted request: exactly one of {@link #onDispatched} or
 * {@link #onRejected}. A request cancelled before dispatch gets {@code onRejected} with a cancelled error.
 *
 * <p>Called on the router's scheduler thread (or, for a full ingress ring, on the submitting thread): hand the
 * outcome over (complete a future, unpark a thread) and return; never block.
 */
public interface AdmissionListener {
    /**
     * The request left the queue and is booked on {@code worker}: send it there now, then report its lifecycle
     * (the router's {@code responding}, {@code completed}, {@code aborted}).
     */
    void onDispatched(long lifecycleId, WorkerWithDpRank worker);

    /** The request will not be served: answer {@code error}'s status and public message. */
    void onRejected(long lifecycleId, AdmissionError error);

    /**
     * {@link #onDispatched(long, WorkerWithDpRank)} with what decided it, for a host that tells its client (the
     * frontend's {@code x-sluice-*} headers). The router calls this one; by default it calls the other.
     *
     * @param policyClass the policy class the request was admitted under, or {@code null} when it has none.
     * @param waitedNanos from its arrival at the router to its dispatch (classification and queue).
     */
    default void onDispatched(long lifecycleId, WorkerWithDpRank worker, String policyClass, long waitedNanos) {
        onDispatched(lifecycleId, worker);
    }

    /**
     * {@link #onRejected(long, AdmissionError)} with the policy class the request was in, or {@code null} when it
     * was rejected before it had one. The router calls this one; by default it calls the other.
     */
    default void onRejected(long lifecycleId, AdmissionError error, String policyClass) {
        onRejected(lifecycleId, error);
    }

    /**
     * The router wants the capacity of this dispatched request back for higher-priority work (preemption). If no
     * byte of its response has gone to its client yet, the host answers {@code error} (the typed, retriable
     * {@code preempted} with its {@code Retry-After}), cancels the engine request, reports nothing more of the
     * lifecycle, and returns true; the router then ends it as aborted with that cause. Returns false when the
     * response has begun: the request runs on untouched. By default false: a host that cannot cancel is never
     * preempted. Called on the scheduler thread: decide with an atomic step and return, never block.
     */
    default boolean onPreempted(long lifecycleId, AdmissionError error) {
        return false;
    }

    /** Convenience for lambdas: {@code AdmissionListener.of((id, w) -> ..., (id, e) -> ...)}. */
    static AdmissionListener of(java.util.function.ObjLongConsumer<WorkerWithDpRank> dispatched,
                                java.util.function.ObjLongConsumer<AdmissionError> rejected) {
        return new AdmissionListener() {
            @Override
            public void onDispatched(long lifecycleId, WorkerWithDpRank worker) {
                dispatched.accept(worker, lifecycleId);
            }

            @Override
            public void onRejected(long lifecycleId, AdmissionError error) {
                rejected.accept(error, lifecycleId);
            }
        };
    }
}
