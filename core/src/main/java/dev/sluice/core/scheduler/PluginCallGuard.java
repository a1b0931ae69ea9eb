package dev.sluice.core.scheduler;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Cuts short a plugin call that blocks the scheduler thread past the classification timeout: the watchdog
 * interrupts the scheduler, so a plugin blocked interruptibly (a lock, a future, a queue, a sleep) returns with an
 * {@link InterruptedException} and the request is answered as timed out. A call that blocks without looking at
 * interrupts (a busy loop, {@code synchronized}) cannot be cut; the watchdog still reports it.
 *
 * <p>The interrupt never escapes the call it was meant for. The state word holds a call number and a status; the
 * watchdog moves {@code IN_CALL → CUTTING}, interrupts, then sets {@code CUT}. The scheduler ends a call by moving
 * {@code IN_CALL → IDLE}; if that fails it waits out {@code CUTTING} and clears its interrupt flag. The call number
 * makes a stale cut (of a call that has since ended) fail its compare-and-set.
 *
 * <p>{@link #begin}/{@link #end} on the scheduler thread; {@link #cutIfOverdue} on the watchdog's thread.
 */
public final class PluginCallGuard {
    private static final long IDLE = 0;
    private static final long IN_CALL = 1;
    private static final long CUTTING = 2;
    private static final long CUT = 3;
    private static final long STATUS = 3;

    private final long timeoutNs;
    private final AtomicLong state = new AtomicLong();
    private volatile long callStartNs;
    private volatile Thread caller;
    private long calls;
    private long cuts;

    public PluginCallGuard(long timeoutNs) {
        if (timeoutNs <= 0) {
            throw new IllegalArgumentException("the plugin call timeout must be > 0 ns, was " + timeoutNs);
        }
        this.timeoutNs = timeoutNs;
    }

    long timeoutNs() {
        return timeoutNs;
    }

    /** Scheduler thread: a plugin call starts at {@code nowNs} (wall-clock nanoseconds). */
    void begin(long nowNs) {
        if (caller == null) {
            caller = Thread.currentThread();
        }
        callStartNs = nowNs;
        calls++;
        state.set(calls << 2 | IN_CALL);
    }

    /** Scheduler thread: the call returned or threw; true when it was cut (its interrupt is already cleared). */
    boolean end() {
        long expected = calls << 2 | IN_CALL;
        if (state.compareAndSet(expected, IDLE)) {
            return false;
        }
        while ((state.get() & STATUS) == CUTTING) {
            Thread.onSpinWait();
        }
        Thread.interrupted();
        state.set(IDLE);
        cuts++;
        return true;
    }

    /** Calls cut so far (scheduler thread). */
    long cuts() {
        return cuts;
    }

    /** Watchdog thread: interrupts the scheduler if its current plugin call began over the timeout ago. */
    boolean cutIfOverdue(long nowNs) {
        long seen = state.get();
        if ((seen & STATUS) != IN_CALL || nowNs - callStartNs <= timeoutNs) {
            return false;
        }
        // callStartNs was written before the state word, so it belongs to call `seen` or a later one; a later
        // call has a new state word and the compare-and-set below fails.
        if (!state.compareAndSet(seen, (seen & ~STATUS) | CUTTING)) {
            return false;
        }
        caller.interrupt();
        state.set((seen & ~STATUS) | CUT);
        return true;
    }
}
