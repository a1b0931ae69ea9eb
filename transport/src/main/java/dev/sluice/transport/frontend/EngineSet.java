package dev.sluice.transport.frontend;

import dev.sluice.transport.cluster.WorkerAddresses;
import dev.sluice.transport.engine.Engine;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A model's engines by worker id. Ids are given out in order from 0 and never reused, so a worker id in the router,
 * the journal or a log line names one engine for the frontend's whole life. An engine that is {@link #retire retired}
 * takes no new request (it has left the router) but stays reachable by its id until the requests already running on
 * it have finished; {@link #closeIdle} then stops it. Each engine may carry resources that serve it (its KV-event
 * subscriber, its metrics scraper), closed when it is retired.
 *
 * <p>Threads: lookups ({@link #engine}, on every request) read one volatile array; changes are synchronized and
 * copy it. Thread-safe; {@link #close} is idempotent and stops every engine (requests still running end with an
 * error), then runs {@code onClose}.
 */
public final class EngineSet implements AutoCloseable, WorkerAddresses {
    private static final Logger LOG = LoggerFactory.getLogger(EngineSet.class);

    /** One worker: its engine, what serves it, and whether it has been retired (and stopped). */
    private record Slot(Engine engine, List<AutoCloseable> attached, boolean retired, boolean stopped) {
    }

    private final Runnable onClose;
    /** False when {@link #onClose} stops the engines itself (the simulated fleet's). */
    private final boolean stopsEngines;
    private volatile Slot[] slots = new Slot[0];
    private boolean closed;

    /** An empty set, to {@link #add} engines to; {@code onClose} runs after every engine is stopped. */
    EngineSet(Runnable onClose) {
        this(onClose, true);
    }

    private EngineSet(Runnable onClose, boolean stopsEngines) {
        this.onClose = onClose;
        this.stopsEngines = stopsEngines;
    }

    /** A set of {@code engines}, worker {@code i} being element {@code i}, which {@code stop} stops. */
    static EngineSet of(List<? extends Engine> engines, Runnable stop) {
        EngineSet set = new EngineSet(stop, false);
        for (Engine engine : engines) {
            set.add(engine, List.of());
        }
        return set;
    }

    /** The id the next {@link #add} gives out. */
    synchronized int nextId() {
        return slots.length;
    }

    /**
     * Adds {@code engine}, which must have been built for worker {@link #nextId}, with the resources that serve it.
     *
     * @return its worker id.
     * @throws IllegalStateException the set is closed.
     */
    synchronized int add(Engine engine, List<AutoCloseable> attached) {
        if (closed) {
            throw new IllegalStateException("the engines are closed");
        }
        Slot[] grown = Arrays.copyOf(slots, slots.length + 1);
        grown[slots.length] = new Slot(engine, List.copyOf(attached), false, false);
        slots = grown;
        return grown.length - 1;
    }

    /**
     * The engine of {@code worker}, retired or not (a request placed on it just before it was retired still runs).
     *
     * @throws IndexOutOfBoundsException no such worker was ever added.
     */
    public Engine engine(int worker) {
        return slots[worker].engine();
    }

    /** Every engine ever added, by worker id, retired ones too. */
    public List<Engine> engines() {
        Slot[] now = slots;
        List<Engine> engines = new ArrayList<>(now.length);
        for (Slot slot : now) {
            engines.add(slot.engine());
        }
        return engines;
    }

    /** The workers not retired, in id order. */
    public List<Integer> active() {
        Slot[] now = slots;
        List<Integer> active = new ArrayList<>(now.length);
        for (int worker = 0; worker < now.length; worker++) {
            if (!now[worker].retired()) {
                active.add(worker);
            }
        }
        return active;
    }

    /** The active worker whose engine is at {@code address} ({@link Engine#address}), if any. */
    OptionalInt find(String address) {
        Slot[] now = slots;
        for (int worker = 0; worker < now.length; worker++) {
            if (!now[worker].retired() && now[worker].engine().address().equals(address)) {
                return OptionalInt.of(worker);
            }
        }
        return OptionalInt.empty();
    }

    /** The address of worker {@code workerId}'s engine, retired or not; null when there is no such worker. */
    @Override
    public String address(long workerId) {
        Slot[] now = slots;
        return workerId >= 0 && workerId < now.length ? now[(int) workerId].engine().address() : null;
    }

    /** The active worker whose engine is at {@code address}, or -1. */
    @Override
    public long worker(String address) {
        OptionalInt found = find(address);
        return found.isPresent() ? found.getAsInt() : -1;
    }

    /** How many workers are active. */
    public int size() {
        return active().size();
    }

    /**
     * Retires {@code worker}: what serves it is closed now, the engine once it is idle ({@link #closeIdle}). The
     * caller has taken it out of the router first. Does nothing if it is retired already.
     */
    synchronized void retire(int worker) {
        Slot slot = slots[worker];
        if (slot.retired()) {
            return;
        }
        replace(worker, new Slot(slot.engine(), List.of(), true, false));
        closeAll(slot.attached(), "worker " + worker);
    }

    /**
     * Stops each retired engine that has nothing running or waiting any more.
     *
     * @return how many were stopped.
     */
    synchronized int closeIdle() {
        int stopped = 0;
        for (int worker = 0; worker < slots.length; worker++) {
            Slot slot = slots[worker];
            if (slot.retired() && !slot.stopped() && idle(slot.engine())) {
                replace(worker, new Slot(slot.engine(), List.of(), true, true));
                closeAll(List.of(slot.engine()), "worker " + worker);
                LOG.info("worker {} ({}) has finished its last request and is stopped", worker,
                    slot.engine().address());
                stopped++;
            }
        }
        return stopped;
    }

    /** Whether every retired engine has been stopped. */
    synchronized boolean retiredAllStopped() {
        for (Slot slot : slots) {
            if (slot.retired() && !slot.stopped()) {
                return false;
            }
        }
        return true;
    }

    private static boolean idle(Engine engine) {
        for (int rank = 0; rank < engine.runtimeConfig().dataParallelSize(); rank++) {
            if (engine.load(rank).runningRequests() > 0 || engine.load(rank).waitingRequests() > 0) {
                return false;
            }
        }
        return true;
    }

    private void replace(int worker, Slot slot) {
        Slot[] copy = slots.clone();
        copy[worker] = slot;
        slots = copy;
    }

    /** Closes each, the last first, logging (not throwing) a failure: one bad resource must not keep others open. */
    private static void closeAll(List<? extends AutoCloseable> resources, String owner) {
        for (int i = resources.size() - 1; i >= 0; i--) {
            try {
                resources.get(i).close();
            } catch (Exception e) {
                LOG.warn("{}: cannot close {}: {}", owner, resources.get(i), e.toString());
            }
        }
    }

    /** Closes what serves every engine (KV-event subscribers, metrics scrapers); the engines go on. Idempotent. */
    synchronized void detachAll() {
        for (int worker = 0; worker < slots.length; worker++) {
            Slot slot = slots[worker];
            if (!slot.attached().isEmpty()) {
                replace(worker, new Slot(slot.engine(), List.of(), slot.retired(), slot.stopped()));
                closeAll(slot.attached(), "worker " + worker);
            }
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        // What serves the engines first (no KV event arrives for an engine already stopped), then the engines.
        detachAll();
        for (int worker = slots.length - 1; worker >= 0; worker--) {
            if (stopsEngines && !slots[worker].stopped()) {
                closeAll(List.of(slots[worker].engine()), "worker " + worker);
            }
        }
        onClose.run();
    }
}
