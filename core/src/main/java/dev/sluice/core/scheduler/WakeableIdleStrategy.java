package dev.sluice.core.scheduler;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.agrona.concurrent.IdleStrategy;

/**
 * The scheduler's default idle strategy: after its last piece of work the scheduler busy-spins for a while, then
 * yields for a while, then parks for at most {@code maxParkNs}, and a producer that hands it work unparks it only
 * when it is parked. While the scheduler spins or yields a producer's wake-up is one read of a flag that nobody
 * writes (a plain load of a shared cache line), so a steady stream of arrivals, one at least every
 * {@code spinNs + yieldNs}, never pays for a wake-up; past that window the scheduler sleeps and costs no CPU, and
 * the first arrival pays one unpark.
 *
 * <p>No lost wake-up: the scheduler sets the parked flag (a volatile store), then looks for work once more, and parks
 * only if there is none; a producer publishes its message, then reads the flag (a volatile load). Of the two, one
 * always sees the other. Only the producer whose compare-and-set clears the flag unparks, so many producers meeting a
 * parked scheduler make one {@code unpark} between them.
 *
 * <p>{@link #idle(int)} and {@link #idle()} run on the scheduler thread only; {@link #wake()} on any thread.
 */
public final class WakeableIdleStrategy implements IdleStrategy {
    /** How long the scheduler busy-spins after its last work by default. */
    public static final long DEFAULT_SPIN_NS = TimeUnit.MICROSECONDS.toNanos(50);
    /** How long it then yields by default before parking. */
    public static final long DEFAULT_YIELD_NS = TimeUnit.MICROSECONDS.toNanos(200);
    /** Timers need the scheduler back within a tick even when nobody wakes it. */
    public static final long DEFAULT_MAX_PARK_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private static final VarHandle PARKED;
    /** Spins between two reads of the clock while spinning. */
    private static final int SPINS_PER_CLOCK_READ = 32;

    static {
        try {
            PARKED = MethodHandles.lookup().findVarHandle(WakeableIdleStrategy.class, "parked", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long spinNs;
    private final long yieldNs;
    private final long maxParkNs;
    private BooleanSupplier pendingWork = () -> false;
    /** The scheduler thread, set before it first parks; read by producers only after they saw {@link #parked}. */
    private volatile Thread sleeper;
    /** 1 while the scheduler is parked or about to park; accessed through {@link #PARKED}. */
    @SuppressWarnings("unused")
    private volatile int parked;
    private int idleCycles;
    private long idleSince;

    /** The default spin and yield windows, parking for at most {@code maxParkNs}. */
    public WakeableIdleStrategy(long maxParkNs) {
        this(DEFAULT_SPIN_NS, DEFAULT_YIELD_NS, maxParkNs);
    }

    /**
     * @param spinNs    how long to busy-spin after the last work (0: no spinning).
     * @param yieldNs   how long to yield after that before parking (0: no yielding).
     * @param maxParkNs the longest park, so timers run without a wake-up.
     */
    public WakeableIdleStrategy(long spinNs, long yieldNs, long maxParkNs) {
        if (spinNs < 0 || yieldNs < 0 || maxParkNs <= 0) {
            throw new IllegalArgumentException("spinNs and yieldNs must be >= 0 and maxParkNs > 0, were " + spinNs
                + ", " + yieldNs + ", " + maxParkNs);
        }
        this.spinNs = spinNs;
        this.yieldNs = yieldNs;
        this.maxParkNs = maxParkNs;
    }

    /** How the scheduler checks, right before parking, whether work arrived meanwhile (any thread may publish). */
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
        if (cycle == 0) {
            idleSince = System.nanoTime();
            Thread.onSpinWait();
            return;
        }
        if (cycle > 0 && cycle % SPINS_PER_CLOCK_READ != 0) {
            // Spinning: the clock is read only every few spins.
            Thread.onSpinWait();
            return;
        }
        long idleFor = System.nanoTime() - idleSince;
        if (idleFor < spinNs) {
            Thread.onSpinWait();
            return;
        }
        // Past the spin window the count goes negative, so every later cycle reads the clock (it yields or parks).
        idleCycles = Integer.MIN_VALUE / 2;
        if (idleFor < spinNs + yieldNs) {
            Thread.yield();
        } else {
            park();
        }
    }

    private void park() {
        if (sleeper == null) {
            sleeper = Thread.currentThread();
        }
        PARKED.setVolatile(this, 1);
        if (!pendingWork.getAsBoolean()) {
            LockSupport.parkNanos(this, maxParkNs);
        }
        PARKED.setRelease(this, 0);
    }

    /**
     * Called by a producer after it published work: unparks the scheduler only if it is parked (or about to be), and
     * only once however many producers call at the same time. While it spins this is a single volatile read.
     */
    public void wake() {
        if ((int) PARKED.getVolatile(this) != 0 && PARKED.compareAndSet(this, 1, 0)) {
            LockSupport.unpark(sleeper);
        }
    }

    /** True while the scheduler is parked or about to park (for tests and diagnostics; any thread). */
    public boolean isParked() {
        return (int) PARKED.getVolatile(this) != 0;
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
