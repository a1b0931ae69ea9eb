package dev.sluice.core.scheduler;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.status.AtomicCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches one router's scheduler for duty cycles that run too long, which means a plugin (or an observer) blocks
 * the scheduler thread: every admission and event of that model waits meanwhile. The scheduler numbers each cycle as
 * it starts and clears the number as it ends (two release stores, no clock read, so the watch costs the cycle next to
 * nothing); a daemon thread samples the number and, for each cycle it finds still running a threshold after it first
 * saw it (so the cycle ran at least that long), counts one overrun and logs the scheduler thread's stack once, which
 * names the blocking call. With a {@link PluginCallGuard} (a classification timeout) it also interrupts a plugin call
 * that has blocked the scheduler past the timeout.
 *
 * <p>{@link #cycleStarted}/{@link #cycleEnded} on the scheduler thread; the rest on the watchdog's thread.
 */
public final class SchedulerWatchdog implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SchedulerWatchdog.class);
    private static final VarHandle RUNNING;

    static {
        try {
            RUNNING = MethodHandles.lookup().findVarHandle(SchedulerWatchdog.class, "running", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final NanoClock clock;
    private final long thresholdNs;
    private final PluginCallGuard guard;
    private final AtomicCounter overruns;
    private final Thread thread;
    /** The number of the duty cycle running now, 0 between cycles; accessed through {@link #RUNNING}. */
    @SuppressWarnings("unused")
    private volatile long running;
    /** Cycles started; written by whoever runs the cycle (one thread at a time, each seeing the last one's writes). */
    private long started;
    private volatile Thread scheduler;
    private volatile boolean closed;
    /** Watchdog thread: the cycle seen running at the last look, and when it was first seen. */
    private long watched;
    private long watchedSince;
    private long reportedCycle;

    /**
     * @param thresholdNs overruns are counted past this; 0 counts none.
     * @param guard       the plugin-call guard to enforce, or {@code null}.
     * @param overruns    counts the overruns; written by the watchdog's thread only.
     */
    public SchedulerWatchdog(String name, long thresholdNs, PluginCallGuard guard, AtomicCounter overruns) {
        if (thresholdNs <= 0 && guard == null) {
            throw new IllegalArgumentException("a watchdog needs a threshold or a plugin-call guard");
        }
        this.clock = System::nanoTime;
        this.thresholdNs = thresholdNs;
        this.guard = guard;
        this.overruns = overruns;
        this.thread = new Thread(this::watch, name + "-watchdog");
        thread.setDaemon(true);
        thread.start();
    }

    /** Scheduler thread: a duty cycle starts (the watchdog times it on its own, wall-clock, thread). */
    void cycleStarted() {
        // The thread running the cycle: with the combining mode a producer may run it.
        Thread current = Thread.currentThread();
        if (scheduler != current) {
            scheduler = current;
        }
        RUNNING.setRelease(this, ++started);
    }

    /** Scheduler thread: the duty cycle ended. */
    void cycleEnded() {
        RUNNING.setRelease(this, 0L);
    }

    /** Duty cycles that ran past the threshold so far. */
    long overruns() {
        return overruns.getAcquire();
    }

    private void watch() {
        long shortest = guard == null ? thresholdNs
            : thresholdNs <= 0 ? guard.timeoutNs() : Math.min(thresholdNs, guard.timeoutNs());
        long period = Math.max(TimeUnit.MILLISECONDS.toNanos(1), shortest / 4);
        while (!closed) {
            LockSupport.parkNanos(this, period);
            long now = clock.nanoTime();
            if (guard != null) {
                guard.cutIfOverdue(now);
            }
            long cycle = (long) RUNNING.getAcquire(this);
            if (cycle != watched) {
                watched = cycle;
                watchedSince = now;
            } else if (thresholdNs > 0 && cycle != 0 && cycle != reportedCycle && now - watchedSince > thresholdNs) {
                reportedCycle = cycle;
                overruns.incrementRelease();
                report();
            }
        }
    }

    private void report() {
        Thread stuck = scheduler;
        StringBuilder stack = new StringBuilder();
        if (stuck != null) {
            for (StackTraceElement frame : stuck.getStackTrace()) {
                stack.append("\n\tat ").append(frame);
            }
        }
        LOG.warn("scheduler {} has been in one duty cycle for over {} ms (overrun {}); a plugin or observer is "
            + "blocking it, and admissions of this model wait meanwhile:{}", stuck == null ? "?" : stuck.getName(),
            TimeUnit.NANOSECONDS.toMillis(thresholdNs), overruns.getAcquire(), stack);
    }

    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(thread);
    }
}
