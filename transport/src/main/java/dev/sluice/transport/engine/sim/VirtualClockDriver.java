package dev.sluice.transport.engine.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.IntSupplier;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.NanoClock;

/**
 * Drives simulated workers on a virtual clock, as a discrete-event simulation: time jumps to the earliest pass boundary
 * or scheduled action, so minutes of traffic run in milliseconds and every run with the same inputs is identical. The
 * virtual time is an Agrona {@link CachedNanoClock} that only the driver sets; give {@link #clock()} to whatever else
 * must read it (a manual router). Everything — scheduled actions, submissions and cancellations (applied at the current
 * virtual time when the driver next steps), listener callbacks and KV events — happens on the thread that calls {@link
 * #runUntil} or {@link #runUntilIdle}. Not thread-safe: use it from one thread.
 */
public final class VirtualClockDriver {
    private record Action(long atNs, long order, Runnable task) implements Comparable<Action> {
        @Override
        public int compareTo(Action other) {
            int byTime = Long.compare(atNs, other.atNs);
            return byTime != 0 ? byTime : Long.compare(order, other.order);
        }
    }

    private final List<SimulatedWorker> workers = new ArrayList<>();
    private final List<IntSupplier> steppers = new ArrayList<>();
    private final PriorityQueue<Action> actions = new PriorityQueue<>();
    private final CachedNanoClock clock = new CachedNanoClock();
    private long order;

    /** At time 0, with nothing attached. */
    public VirtualClockDriver() {
    }

    /** The virtual time in nanoseconds since the simulation started. */
    public long nanoTime() {
        return clock.nanoTime();
    }

    /** The virtual clock, to read: it moves only when this driver steps. */
    public NanoClock clock() {
        return clock;
    }

    /** Drives {@code worker} from now on. */
    public void attach(SimulatedWorker worker) {
        workers.add(worker);
    }

    /**
     * Steps {@code stepper} (a manual router's {@code doWork}, say) together with the workers: after every
     * scheduled action and pass boundary, workers and steppers run in turn until none reports work, so whatever
     * one hands the other at an instant is handled at that same virtual instant. A stepper has no time of its own:
     * work it needs at a later instant (a timer) must be brought about with {@link #at}.
     */
    public void attachStepper(IntSupplier stepper) {
        steppers.add(stepper);
    }

    /** Runs {@code task} on this thread when the virtual clock reaches {@code atNs} (or now, if that has passed). */
    public void at(long atNs, Runnable task) {
        actions.add(new Action(Math.max(atNs, clock.nanoTime()), order++, task));
    }

    /** Runs {@code task} {@code delayNs} after the current virtual time. */
    public void after(long delayNs, Runnable task) {
        at(clock.nanoTime() + delayNs, task);
    }

    /**
     * Steps until no worker has a pass due and no action is scheduled, or until the clock would pass
     * {@code limitNs}. Returns true if everything went idle, false if the limit stopped it (the clock is then at
     * {@code limitNs}).
     */
    public boolean runUntilIdle(long limitNs) {
        while (true) {
            drain();
            long next = nextEventAt();
            if (next == RankEngine.IDLE) {
                return true;
            }
            if (next > limitNs) {
                clock.update(Math.max(clock.nanoTime(), limitNs));
                drain();
                return false;
            }
            clock.update(next);
            while (!actions.isEmpty() && actions.peek().atNs() <= next) {
                actions.poll().task().run();
            }
        }
    }

    /** Steps until the clock reaches {@code untilNs}, whatever is still running then. */
    public void runUntil(long untilNs) {
        runUntilIdle(untilNs);
        clock.update(Math.max(clock.nanoTime(), untilNs));
        drain();
    }

    private void drain() {
        long nowNs = clock.nanoTime();
        int work;
        do {
            work = 0;
            for (int i = 0; i < workers.size(); i++) {
                work += workers.get(i).doWork(nowNs);
            }
            for (int i = 0; i < steppers.size(); i++) {
                work += steppers.get(i).getAsInt();
            }
        } while (work > 0);
    }

    private long nextEventAt() {
        long next = actions.isEmpty() ? RankEngine.IDLE : actions.peek().atNs();
        for (int i = 0; i < workers.size(); i++) {
            next = Math.min(next, workers.get(i).nextEventAt());
        }
        return next;
    }
}
