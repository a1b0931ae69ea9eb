package dev.sluice.core.api;

/**
 * Periodic work for a classifier, run on the router's scheduler thread between admissions (so it may touch the
 * classifier's state without locks, like {@code onEvent}): reconcile loops, budget refills, state expiry. Time is
 * the router's clock, so tests and replays drive it.
 */
public interface ClassifierTimers {
    /** Stops a periodic task. */
    interface Cancellable {
        /** Stops the task; idempotent. */
        void cancel();
    }

    /**
     * Runs {@code task} every {@code intervalNanos} of the router's clock, the first time one interval from now.
     * A task that throws is logged and keeps its schedule.
     */
    Cancellable every(long intervalNanos, Runnable task);

    /** For contexts without a scheduler (unit tests of a classifier): tasks never run. */
    ClassifierTimers NONE = (interval, task) -> () -> { };
}
