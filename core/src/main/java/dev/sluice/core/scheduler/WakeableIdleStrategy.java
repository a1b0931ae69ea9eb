package dev.sluice.core.scheduler;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.agrona.concurrent.IdleStrategy;

/**
 * The scheduler's default idle strategy: spin, then yield, then park, but woken at once by a producer that hands
 * it work, so an arrival at an idle router waits microseconds, not a park period. No lost wake-ups: the scheduler
 * announces that it is going to sleep, then looks for work once more before parking; a producer publishes, then
 * looks for the announcement (both volatile, so one of the two always sees the other).
 *
 * <p>{@link #idle(int)} runs on the scheduler thread; {@link #wake()} on any thread.
 */
public final class WakeableIdleStrategy implements IdleStrategy {
    private static final int SPINS = 100;
    private static final int YIELDS = 10;

    private final long maxParkNs;
    private BooleanSupplier pendingWork = () -> false;
    private volatile Thread sleeper;
    private int idleCycles;

    public WakeableIdleStrategy(long maxParkNs) {
        this.maxParkNs = maxParkNs;
    }

    /** How the scheduler checks, right before parking, whether work arrived meanwhile. */
    public void pendingWork(BooleanSupplier check) {
        this.pendingWork = check;
    }

    @Override
    public void idle(int workCount) {
        if (workCount > 0) {
            idleCycles = 0;
            return;
        }
        idle();
    }

    @Override
    public void idle() {
        int cycle = idleCycles++;
        if (cycle < SPINS) {
            Thread.onSpinWait();
        } else if (cycle < SPINS + YIELDS) {
            Thread.yield();
        } else {
            sleeper = Thread.currentThread();
            if (!pendingWork.getAsBoolean()) {
                // Timers need the scheduler back within a tick even when nobody wakes it.
                LockSupport.parkNanos(this, maxParkNs);
            }
            sleeper = null;
        }
    }

    /** Called by a producer after it published work: unparks the scheduler if it sleeps. */
    public void wake() {
        Thread thread = sleeper;
        if (thread != null) {
            LockSupport.unpark(thread);
        }
    }

    @Override
    public void reset() {
        idleCycles = 0;
    }

    @Override
    public String alias() {
        return "wakeable";
    }
}
