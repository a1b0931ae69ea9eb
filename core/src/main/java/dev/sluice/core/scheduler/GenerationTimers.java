package dev.sluice.core.scheduler;

import dev.sluice.core.api.ClassifierTimers;
import java.util.ArrayList;
import java.util.List;

/**
 * The periodic tasks of one classifier instance, registered with the router's {@link PeriodicTasks} and remembered,
 * so that a classifier replaced by a policy reload stops running them once the last request it classified has ended
 * ({@link ClassifierHost#retire}). Registration is thread-safe (a factory or a continuation may register).
 */
public final class GenerationTimers implements ClassifierTimers {
    private final ClassifierTimers tasks;
    private final List<Cancellable> registered = new ArrayList<>();
    private boolean cancelled;

    public GenerationTimers(ClassifierTimers tasks) {
        this.tasks = tasks;
    }

    @Override
    public synchronized Cancellable every(long intervalNanos, Runnable task) {
        Cancellable handle = tasks.every(intervalNanos, task);
        if (cancelled) {
            handle.cancel();
        } else {
            registered.add(handle);
        }
        return handle;
    }

    /** Stops every task registered so far and any registered later. */
    synchronized void cancelAll() {
        cancelled = true;
        for (Cancellable handle : registered) {
            handle.cancel();
        }
        registered.clear();
    }
}
