package dev.sluice.plugins.testing;

import dev.sluice.core.api.ClassifierTimers;
import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.NanoClock;

/**
 * {@link ClassifierTimers} for classifier unit tests, with the router's semantics: a task first runs one interval
 * after it was registered, then one interval after each run; a jump over several intervals runs it once.
 */
public final class ManualTimers implements ClassifierTimers {
    private final NanoClock clock;
    private final List<Task> tasks = new ArrayList<>();

    private static final class Task implements Cancellable {
        final long interval;
        final Runnable body;
        long nextAt;
        boolean cancelled;

        Task(long interval, Runnable body, long nextAt) {
            this.interval = interval;
            this.body = body;
            this.nextAt = nextAt;
        }

        @Override
        public void cancel() {
            cancelled = true;
        }
    }

    /** Timers on the test's clock. */
    public ManualTimers(NanoClock clock) {
        this.clock = clock;
    }

    @Override
    public Cancellable every(long intervalNanos, Runnable task) {
        Task entry = new Task(intervalNanos, task, clock.nanoTime() + intervalNanos);
        tasks.add(entry);
        return entry;
    }

    /** Runs the tasks due at the clock's time; returns how many ran. */
    public int runDue() {
        long now = clock.nanoTime();
        int ran = 0;
        for (Task task : List.copyOf(tasks)) {
            if (!task.cancelled && task.nextAt <= now) {
                task.body.run();
                task.nextAt = now + task.interval;
                ran++;
            }
        }
        tasks.removeIf(t -> t.cancelled);
        return ran;
    }

    /** Registered tasks that are not cancelled. */
    public int active() {
        return (int) tasks.stream().filter(t -> !t.cancelled).count();
    }
}
