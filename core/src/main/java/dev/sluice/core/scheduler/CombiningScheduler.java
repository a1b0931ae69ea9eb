package dev.sluice.core.scheduler;

import dev.sluice.core.host.AdmissionListener;
import dev.sluice.core.host.AdmissionRequest;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.IdleStrategy;

/**
 * The scheduler's duty cycle as a role that the scheduler thread and the producers hand back and forth with one
 * compare-and-set, for {@code scheduler_idle: combine}. While the scheduler thread holds the role it works and, after
 * its last work, spins for {@code spinNs}; then it gives the role up and parks: for at most {@code maxParkNs} while
 * a timer, a periodic task or a queue deadline is pending, else for {@code untimedParkNs}, and a producer whose cycle
 * leaves timed work behind wakes it to plan again. An idle router so wakes a few times a second, not every
 * millisecond. A producer that has published a message and finds the role free takes it and runs the duty cycle itself,
 * on its own thread: its own message and whatever else is on the ring or in the inbox, as a batch, up to
 * {@value #MAX_PRODUCER_CYCLES} cycles; then it gives the role up, and if work is left it unparks the scheduler
 * thread to take it. An arrival that finds the role free does not go through the ring at all
 * ({@link #arriveIfIdle}): once its producer holds the role and sees nothing pending, no message can be ahead of it,
 * so the cycle takes it directly, first, as if it were the ring's next message. An uncontended decision so costs one
 * compare-and-set and one duty cycle on the caller's thread, no ring slot and no wake-up; producers that meet a busy
 * owner publish, return at once, and their messages batch on that owner, as on the scheduler thread.
 *
 * <p>Single writer: the role is one word ({@code FREE}, {@code SCHEDULER}, {@code PRODUCER}); a thread runs a duty
 * cycle only after its compare-and-set from {@code FREE} succeeded and until its volatile store of {@code FREE}, so
 * exactly one thread at a time mutates the scheduler's state, and each owner's writes happen-before the next owner's
 * reads (release by the volatile store, acquire by the compare-and-set). No lost message: a producer publishes, then
 * reads the role; an owner stores {@code FREE}, then looks for pending work and takes the role again if there is any.
 * Of the two, one sees the other, so every message is handled by some owner. The scheduler thread takes the role for
 * good when the router closes, so no producer runs a cycle after {@link #onClose()}.
 *
 * <p>Listener and plugin callbacks run on whichever thread holds the role: one at a time, in order, never two at
 * once, but not always on the scheduler thread.
 */
public final class CombiningScheduler implements Agent, IdleStrategy {
    /** How long the scheduler thread keeps the role after its last work by default: it gives it up at once. */
    public static final long DEFAULT_SPIN_NS = 0;
    /**
     * How long the scheduler thread parks when no cycle has timed work by default. It bounds how late a periodic task
     * that another thread registers while no messages come runs for the first time.
     */
    public static final long DEFAULT_UNTIMED_PARK_NS = TimeUnit.MILLISECONDS.toNanos(50);
    /** Duty cycles a producer runs before it leaves what is left to the scheduler thread. */
    static final int MAX_PRODUCER_CYCLES = 8;

    static final int FREE = 0;
    static final int SCHEDULER = 1;
    static final int PRODUCER = 2;

    private static final VarHandle OWNER;
    private static final VarHandle PARKED_LONG;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            OWNER = lookup.findVarHandle(CombiningScheduler.class, "owner", int.class);
            PARKED_LONG = lookup.findVarHandle(CombiningScheduler.class, "parkedLong", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long spinNs;
    private final long maxParkNs;
    private final long untimedParkNs;
    private final LongConsumer park;
    /** The duty cycle; set once by {@link #attach} before the router is handed out. */
    private volatile Scheduled agent;
    private volatile Thread schedulerThread;
    /** Who holds the role; accessed through {@link #OWNER}. */
    @SuppressWarnings("unused")
    private volatile int owner;
    /**
     * The scheduler thread gave the role up with no timed work pending and parks for {@link #untimedParkNs}; set by
     * it before it frees the role, cleared by the producer that wakes it. Accessed through {@link #PARKED_LONG}.
     */
    @SuppressWarnings("unused")
    private boolean parkedLong;
    /** Scheduler thread only: it holds the role. */
    private boolean held;
    private boolean idling;
    private long idleSince;

    /** What the role runs: a duty cycle, the check for work not yet taken, and a cycle that takes an arrival first. */
    public interface Scheduled extends Agent {
        /** True when the ring or the inbox holds work no cycle has taken yet (any thread). */
        boolean hasPendingWork();

        /**
         * True when a cycle may find work later without any message: a timer, a periodic task or a queue deadline is
         * pending. Called only by the role's holder.
         */
        boolean hasTimedWork();

        /** An ingress time that stands for the clock reading of the cycle that takes the arrival. */
        long NOW = Long.MIN_VALUE;

        /**
         * One duty cycle that handles this arrival first, exactly as if it were the next message on the ring; the
         * caller holds the role and found no pending work, so nothing is ahead of it. {@code ingressAt} may be
         * {@link #NOW}.
         */
        int doWork(long lifecycleId, long ingressAt, AdmissionRequest request, AdmissionListener listener);
    }

    /** The default spin window, parking for at most {@code maxParkNs} while timed work is pending. */
    public CombiningScheduler(long maxParkNs) {
        this(DEFAULT_SPIN_NS, maxParkNs, Math.max(maxParkNs, DEFAULT_UNTIMED_PARK_NS),
            ns -> LockSupport.parkNanos(ns));
    }

    /**
     * @param spinNs        how long the scheduler thread keeps the role after its last work.
     * @param maxParkNs     the longest park while timed work is pending, so timers run without a wake-up.
     * @param untimedParkNs the longest park while no timed work is pending; at least {@code maxParkNs}.
     * @param park          parks the scheduler thread for at most the given nanoseconds (tests pass a recorder).
     */
    CombiningScheduler(long spinNs, long maxParkNs, long untimedParkNs, LongConsumer park) {
        if (spinNs < 0 || maxParkNs <= 0 || untimedParkNs < maxParkNs) {
            throw new IllegalArgumentException("spinNs must be >= 0, maxParkNs > 0 and untimedParkNs >= maxParkNs, "
                + "were " + spinNs + ", " + maxParkNs + ", " + untimedParkNs);
        }
        this.spinNs = spinNs;
        this.maxParkNs = maxParkNs;
        this.untimedParkNs = untimedParkNs;
        this.park = park;
    }

    /** Sets the duty cycle the role runs; once, before any producer publishes. */
    public void attach(Scheduled scheduled) {
        this.agent = scheduled;
    }

    /** Scheduler thread: one duty cycle if it holds the role or can take it; 0 when a producer holds it. */
    @Override
    public int doWork() throws Exception {
        if (schedulerThread == null) {
            schedulerThread = Thread.currentThread();
        }
        if (!held) {
            if (!OWNER.compareAndSet(this, FREE, SCHEDULER)) {
                return 0;
            }
            held = true;
        }
        return agent.doWork();
    }

    @Override
    public void onStart() {
        agent.onStart();
    }

    /** Scheduler thread, when the router closes: takes the role for good, then closes the duty cycle. */
    @Override
    public void onClose() {
        while (!held) {
            held = OWNER.compareAndSet(this, FREE, SCHEDULER);
            if (!held) {
                Thread.yield();
            }
        }
        agent.onClose();
    }

    @Override
    public String roleName() {
        return agent.roleName();
    }

    @Override
    public void idle(int workCount) {
        if (workCount > 0) {
            idling = false;
            return;
        }
        idle();
    }

    /**
     * Scheduler thread: spins while within the window, then gives the role up and parks unless work is pending, the
     * longer park when no timed work is.
     */
    @Override
    public void idle() {
        if (!held) {
            park.accept(maxParkNs);
            return;
        }
        long now = System.nanoTime();
        if (!idling) {
            idling = true;
            idleSince = now;
        }
        if (now - idleSince < spinNs) {
            Thread.onSpinWait();
            return;
        }
        held = false;
        idling = false;
        // Planned while holding the role, so the producer that takes it next sees the plan.
        boolean untimed = !agent.hasTimedWork();
        PARKED_LONG.setRelease(this, untimed);
        OWNER.setVolatile(this, FREE);
        if (agent.hasPendingWork()) {
            // Published before the role was free: the next cycle takes it back, unless a producer did.
            return;
        }
        park.accept(untimed ? untimedParkNs : maxParkNs);
    }

    /**
     * A producer published a message: if the role is free it takes it and runs duty cycles until no work is pending
     * (at most {@value #MAX_PRODUCER_CYCLES}, then the scheduler thread is woken for the rest). Otherwise one read:
     * the owner takes the message. Reentrant calls (a callback of this producer's own cycle publishing) see the role
     * held and return.
     */
    public void afterPublish() {
        Scheduled cycle = agent;
        while ((int) OWNER.getVolatile(this) == FREE && OWNER.compareAndSet(this, FREE, PRODUCER)) {
            if (!runHeld(cycle, false, 0, 0, null, null)) {
                return;
            }
        }
    }

    /**
     * A producer's arrival, before it is published: if the role is free and, once this producer holds it, neither the
     * ring nor the inbox holds anything, the arrival is handed to a duty cycle directly (no ring slot, publish or
     * poll), then the cycles go on as after a publish. False when the role is busy or work is pending (which this
     * producer then runs first, if it got the role): the caller publishes the arrival through the ring.
     */
    public boolean arriveIfIdle(long lifecycleId, long ingressAt, AdmissionRequest request,
                                AdmissionListener listener) {
        if ((int) OWNER.getVolatile(this) != FREE || !OWNER.compareAndSet(this, FREE, PRODUCER)) {
            return false;
        }
        Scheduled cycle = agent;
        if (cycle.hasPendingWork()) {
            // Messages ahead of this one: they go first, and this one behind them through the ring.
            if (runHeld(cycle, false, 0, 0, null, null)) {
                afterPublish();
            }
            return false;
        }
        if (runHeld(cycle, true, lifecycleId, ingressAt, request, listener)) {
            afterPublish();
        }
        return true;
    }

    /**
     * A producer holding the role: one cycle (taking the given arrival first when {@code direct}), then more while
     * work is pending, up to {@value #MAX_PRODUCER_CYCLES}; then gives the role up. True when work was left but the
     * role is free and the cycle budget not spent, so the caller tries to take the role again; when the budget is
     * spent, the scheduler thread is woken for the rest.
     */
    private boolean runHeld(Scheduled cycle, boolean direct, long lifecycleId, long ingressAt,
                            AdmissionRequest request, AdmissionListener listener) {
        int cycles = 0;
        try {
            if (direct) {
                cycle.doWork(lifecycleId, ingressAt, request, listener);
            } else {
                cycle.doWork();
            }
            cycles++;
            while (cycles < MAX_PRODUCER_CYCLES && cycle.hasPendingWork()) {
                cycle.doWork();
                cycles++;
            }
        } catch (Exception e) {
            // The scheduler's cycle contains its own failures; only a broken agent gets here.
            throw new IllegalStateException("the duty cycle failed on a producer", e);
        } finally {
            // The scheduler thread planned a long park, and these cycles left timed work: wake it (once) to plan again.
            boolean replan = (boolean) PARKED_LONG.getAcquire(this) && cycle.hasTimedWork()
                && PARKED_LONG.compareAndSet(this, true, false);
            OWNER.setVolatile(this, FREE);
            if (replan) {
                wakeScheduler();
            }
        }
        if (!cycle.hasPendingWork()) {
            return false;
        }
        if (cycles >= MAX_PRODUCER_CYCLES) {
            wakeScheduler();
            return false;
        }
        return true;
    }

    /**
     * Work arrived that no producer runs (a continuation or wake-up in the inbox): unparks the scheduler thread
     * unless it holds the role (it then finds the work before it gives the role up).
     */
    public void wakeScheduler() {
        Thread thread = schedulerThread;
        if (thread != null && (int) OWNER.getVolatile(this) != SCHEDULER) {
            LockSupport.unpark(thread);
        }
    }

    /** Whether the scheduler thread's last plan was the long park and no producer has woken it since (tests). */
    boolean parkedLong() {
        return (boolean) PARKED_LONG.getAcquire(this);
    }

    /** Who holds the role now: {@link #FREE}, {@link #SCHEDULER} or {@link #PRODUCER} (tests, diagnostics). */
    int owner() {
        return (int) OWNER.getVolatile(this);
    }

    @Override
    public void reset() {
        idling = false;
    }

    @Override
    public String alias() {
        return "combining";
    }
}
