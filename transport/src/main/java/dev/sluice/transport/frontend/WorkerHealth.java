package dev.sluice.transport.frontend;

import dev.sluice.transport.engine.ProbeResult;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.agrona.concurrent.NanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine health of a frontend's workers, by worker id. A worker whose engine fails
 * {@link WorkerHealthSettings#failureThreshold} requests in a row is marked unhealthy: the {@link Listener} takes it
 * out of the router, so no new request goes there, while the requests already running on it end as they will. It is
 * then probed on the {@link Timer}, first after {@code firstRetry}, then at doubling intervals capped at
 * {@code maxRetry}; the first probe that succeeds marks it healthy and the listener puts it back. A success resets
 * a healthy worker's count. While a worker is unhealthy its requests' outcomes are ignored (they were sent before it
 * turned, or are late): only probes decide. With a threshold of 0 nothing is ever marked unhealthy.
 *
 * <pre>
 *   HEALTHY ──threshold failures in a row──▶ UNHEALTHY: leaves the router ──probe succeeds──▶ HEALTHY: rejoins
 *     ▲ a success resets the count                │ a probe fails: the next after min(2 × interval, maxRetry)
 * </pre>
 *
 * <p>Threads: outcomes come from the HTTP handlers' virtual threads, probes run on the timer's thread one at a time
 * (or on a test's thread, {@link #probeNow}). Each worker's state is guarded by its own {@link ReentrantLock}
 * (which, unlike a monitor, does not pin a virtual thread while it waits) and the listener is called under it, so a
 * worker's leave and rejoin reach the router in order. The common case, a success on a worker with no failures,
 * reads one volatile field and takes no lock. Thread-safe; {@link #close} is idempotent.
 */
final class WorkerHealth implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WorkerHealth.class);

    /** Checks one worker's engine; blocks up to the engine's timeouts. */
    interface Probe {
        ProbeResult probe(int worker);
    }

    /** Hears transitions, under the worker's lock: take the worker out of the router, put it back. */
    interface Listener {
        void onUnhealthy(int worker);

        void onRecovered(int worker);
    }

    /** Runs a task after a delay on a thread that may block (a probe waits for its engine). */
    interface Timer extends AutoCloseable {
        /** A timer for when nothing is ever marked unhealthy: it runs nothing. */
        Timer NONE = new Timer() {
            @Override
            public void schedule(Runnable task, long delayNs) {
            }

            @Override
            public void close() {
            }
        };

        void schedule(Runnable task, long delayNs);

        /** Drops the tasks not yet run. */
        @Override
        void close();
    }

    /** One worker's state; the fields without {@code volatile} are read and written under {@link #lock} only. */
    private static final class Slot {
        final int worker;
        final String address;
        final ReentrantLock lock = new ReentrantLock();
        volatile int failures;
        volatile boolean healthy = true;
        /** A new one each time the worker turns unhealthy, so a probe task of an earlier episode does nothing. */
        long episode;
        long intervalNs;
        long nextProbeAt;
        long unhealthySince;
        String lastFailure;
        /** The worker's engine left the frontend: nothing about it is decided any more. */
        volatile boolean forgotten;

        Slot(int worker, String address) {
            this.worker = worker;
            this.address = address;
        }
    }

    private final WorkerHealthSettings settings;
    /** By worker id; grown as workers are tracked, a forgotten worker's slot kept (its id is never reused). */
    private volatile Slot[] slots;
    private final Probe probe;
    private final Listener listener;
    private final NanoClock clock;
    private final Timer timer;
    private final AtomicInteger unhealthy = new AtomicInteger();
    private volatile boolean closed;

    /**
     * @param addresses where each worker's engine runs (for logs), by worker id.
     * @param timer     runs the probes; closed with this.
     */
    WorkerHealth(WorkerHealthSettings settings, List<String> addresses, Probe probe, Listener listener,
                 NanoClock clock, Timer timer) {
        this.settings = settings;
        this.probe = probe;
        this.listener = listener;
        this.clock = clock;
        this.timer = timer;
        this.slots = new Slot[0];
        for (int worker = 0; worker < addresses.size(); worker++) {
            track(worker, addresses.get(worker));
        }
    }

    /** Tracks a worker that joined, healthy, whose engine runs at {@code address}; its id is not tracked yet. */
    synchronized void track(int worker, String address) {
        Slot[] grown = Arrays.copyOf(slots, Math.max(slots.length, worker + 1));
        if (grown[worker] != null) {
            throw new IllegalArgumentException("worker " + worker + " is tracked already");
        }
        grown[worker] = new Slot(worker, address);
        slots = grown;
    }

    /**
     * Stops tracking {@code worker}, whose engine left the frontend: its outcomes and probes are ignored from now
     * on and the listener hears nothing more of it; if it was unhealthy, it no longer counts as such.
     */
    void forget(int worker) {
        Slot slot = slots[worker];
        slot.lock.lock();
        try {
            if (slot.forgotten) {
                return;
            }
            slot.forgotten = true;
            if (!slot.healthy) {
                unhealthy.decrementAndGet();
            }
        } finally {
            slot.lock.unlock();
        }
    }

    /** A timer on its own daemon platform thread, named {@code name}; none when health tracking is off. */
    static Timer timer(WorkerHealthSettings settings, String name) {
        if (!settings.enabled()) {
            return Timer.NONE;
        }
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, Thread.ofPlatform().daemon()
            .name(name).factory());
        return new Timer() {
            @Override
            public void schedule(Runnable task, long delayNs) {
                executor.schedule(task, delayNs, TimeUnit.NANOSECONDS);
            }

            @Override
            public void close() {
                executor.shutdownNow();
            }
        };
    }

    /** A request on {@code worker} completed: its engine works. */
    void onSuccess(int worker) {
        Slot slot = slots[worker];
        if (slot.failures == 0) {
            return;
        }
        slot.lock.lock();
        try {
            if (slot.healthy) {
                slot.failures = 0;
            }
        } finally {
            slot.lock.unlock();
        }
    }

    /**
     * A request on {@code worker} failed for a reason of the engine's: it could not be reached, lost the connection,
     * answered 5xx or "not now", sent no first token in time or a malformed stream. Not for failures the client
     * caused (a rejected request, a client that went away).
     *
     * @param reason the client-safe failure message, logged when this failure turns the worker unhealthy.
     */
    void onFailure(int worker, String reason) {
        if (!settings.enabled()) {
            return;
        }
        Slot slot = slots[worker];
        slot.lock.lock();
        try {
            if (closed || !slot.healthy || slot.forgotten) {
                return;
            }
            slot.lastFailure = reason;
            if (slot.failures + 1 < settings.failureThreshold()) {
                slot.failures++;
                return;
            }
            turnUnhealthy(slot);
        } finally {
            slot.lock.unlock();
        }
    }

    private void turnUnhealthy(Slot slot) {
        long now = clock.nanoTime();
        slot.failures = 0;
        slot.healthy = false;
        long episode = ++slot.episode;
        slot.unhealthySince = now;
        slot.intervalNs = settings.firstRetry().toNanos();
        slot.nextProbeAt = now + slot.intervalNs;
        int threshold = settings.failureThreshold();
        LOG.warn("worker {} ({}) is unhealthy after {}, the last: {}; it leaves the router and is probed in {}",
            slot.worker, slot.address, threshold == 1 ? "an engine failure" : threshold + " engine failures in a row",
            slot.lastFailure, WorkerHealthSettings.describe(settings.firstRetry()));
        listener.onUnhealthy(slot.worker);
        // Counted after the listener: whoever sees every worker unhealthy knows the router has been told.
        unhealthy.incrementAndGet();
        timer.schedule(() -> probeDue(slot, episode), slot.intervalNs);
    }

    /** The timer's task: probe; if the engine still does not answer, schedule the next probe, further out. */
    private void probeDue(Slot slot, long episode) {
        ProbeResult result = attempt(slot, episode);
        if (result == null || result.reachable()) {
            return;
        }
        slot.lock.lock();
        try {
            if (closed || slot.healthy || slot.forgotten || slot.episode != episode) {
                return;
            }
            slot.intervalNs = Math.min(2 * slot.intervalNs, settings.maxRetry().toNanos());
            slot.nextProbeAt = clock.nanoTime() + slot.intervalNs;
            timer.schedule(() -> probeDue(slot, episode), slot.intervalNs);
        } finally {
            slot.lock.unlock();
        }
    }

    /**
     * Probes the worker, unlocked, and rejoins it if the engine answered.
     *
     * @return what the probe found, or {@code null} when there was nothing to probe (healthy again, or closed).
     */
    private ProbeResult attempt(Slot slot, long episode) {
        if (closed || slot.healthy || slot.forgotten) {
            return null;
        }
        ProbeResult result;
        try {
            result = probe.probe(slot.worker);
        } catch (RuntimeException e) {
            result = ProbeResult.unreachable("the probe failed: " + e);
        }
        slot.lock.lock();
        try {
            if (closed || slot.healthy || slot.forgotten || slot.episode != episode) {
                return null;
            }
            if (!result.reachable()) {
                slot.lastFailure = result.reason();
                LOG.debug("worker {} ({}) is still unhealthy: {}", slot.worker, slot.address, result.reason());
                return result;
            }
            slot.healthy = true;
            LOG.info("worker {} ({}) recovered after {} ms unhealthy: its engine answered a probe; it rejoins the "
                + "router", slot.worker, slot.address, (clock.nanoTime() - slot.unhealthySince) / 1_000_000);
            listener.onRecovered(slot.worker);
            unhealthy.decrementAndGet();
            return result;
        } finally {
            slot.lock.unlock();
        }
    }

    /**
     * Probes every unhealthy worker now, on the caller's thread, whatever its backoff says; the timer's schedule is
     * left as it is. For tests, which drive probes instead of waiting for them.
     *
     * @return how many workers recovered.
     */
    int probeNow() {
        int recovered = 0;
        for (Slot slot : slots) {
            long episode;
            slot.lock.lock();
            try {
                if (closed || slot.healthy || slot.forgotten) {
                    continue;
                }
                episode = slot.episode;
            } finally {
                slot.lock.unlock();
            }
            ProbeResult result = attempt(slot, episode);
            if (result != null && result.reachable()) {
                recovered++;
            }
        }
        return recovered;
    }

    /** Workers marked unhealthy now. */
    int unhealthyCount() {
        return unhealthy.get();
    }

    /** True when there are workers and every one of them is unhealthy. */
    boolean noneHealthy() {
        int tracked = 0;
        for (Slot slot : slots) {
            if (!slot.forgotten) {
                tracked++;
            }
        }
        return tracked > 0 && unhealthy.get() == tracked;
    }

    boolean healthy(int worker) {
        return slots[worker].healthy;
    }

    /** Nanoseconds until the next probe of any unhealthy worker is due (0 if overdue), or -1 when none is. */
    long nanosUntilNextProbe() {
        long now = clock.nanoTime();
        long soonest = -1;
        for (Slot slot : slots) {
            slot.lock.lock();
            try {
                if (!slot.healthy && !slot.forgotten) {
                    long wait = Math.max(0, slot.nextProbeAt - now);
                    soonest = soonest < 0 ? wait : Math.min(soonest, wait);
                }
            } finally {
                slot.lock.unlock();
            }
        }
        return soonest;
    }

    /** Stops probing; outcomes reported afterwards are ignored and the listener hears nothing more. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (Slot slot : slots) {
            // A transition in progress finishes before close returns: none reaches a router closed after this.
            slot.lock.lock();
            slot.lock.unlock();
        }
        timer.close();
    }
}
