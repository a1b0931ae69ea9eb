package dev.sluice.core.scheduler;

import dev.sluice.core.api.ClassifierTimers;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The classifier's periodic tasks, run by the scheduler thread on the router's clock. Registration is
 * thread-safe (a factory or a continuation may register); running is the scheduler's alone. A duty cycle with
 * nothing due costs one comparison.
 */
public final class PeriodicTasks implements ClassifierTimers {
    private static final Logger LOG = LoggerFactory.getLogger(PeriodicTasks.class);

    private static final class Task implements Cancellable {
        final long intervalNs;
        final Runnable body;
        long nextAt = -1;
        volatile boolean cancelled;

        Task(long intervalNs, Runnable body) {
            this.intervalNs = intervalNs;
            this.body = body;
        }

        @Override
        public void cancel() {
            cancelled = true;
        }
    }

    private final ConcurrentLinkedQueue<Task> added = new ConcurrentLinkedQueue<>();
    private final List<Task> tasks = new ArrayList<>();
    private long nextDue = Long.MAX_VALUE;
    long failures;

    @Override
    public Cancellable every(long intervalNanos, Runnable task) {
        if (intervalNanos <= 0) {
            throw new IllegalArgumentException("interval must be > 0, was " + intervalNanos);
        }
        Task entry = new Task(intervalNanos, Objects.requireNonNull(task, "task"));
        added.add(entry);
        return entry;
    }

    /** Whether any task is registered (cancelled ones until their next due time drops them). Scheduler thread only. */
    boolean hasTasks() {
        return !tasks.isEmpty() || !added.isEmpty();
    }

    /** Runs the due tasks; returns how many ran. Scheduler thread only. */
    int run(long nowNs) {
        Task fresh;
        while ((fresh = added.poll()) != null) {
            fresh.nextAt = nowNs + fresh.intervalNs;
            tasks.add(fresh);
            nextDue = Math.min(nextDue, fresh.nextAt);
        }
        if (nowNs < nextDue) {
            return 0;
        }
        int ran = 0;
        long earliest = Long.MAX_VALUE;
        for (int i = tasks.size() - 1; i >= 0; i--) {
            Task task = tasks.get(i);
            if (task.cancelled) {
                tasks.remove(i);
                continue;
            }
            if (task.nextAt <= nowNs) {
                ran++;
                runOnce(task);
                // Missed intervals are not replayed: the next run is one interval from now.
                task.nextAt = nowNs + task.intervalNs;
            }
            earliest = Math.min(earliest, task.nextAt);
        }
        nextDue = earliest;
        return ran;
    }

    private void runOnce(Task task) {
        try {
            task.body.run();
        } catch (Throwable e) {
            // An Error too: the task keeps its schedule, so a failing task runs once per interval, not every cycle.
            failures++;
            LOG.error("a classifier's periodic task failed; it keeps its schedule", e);
        }
    }
}
