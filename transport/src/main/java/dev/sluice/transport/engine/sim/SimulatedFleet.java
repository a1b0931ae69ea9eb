package dev.sluice.transport.engine.sim;

import dev.sluice.core.kv.KvEventSink;
import dev.sluice.transport.engine.Engine;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * N in-process simulated workers with ids {@code 0..N-1}, the embedded default engine fleet. Two modes:
 * <ul>
 *   <li>{@link #realTime}: each worker has its own {@link RealTimeRunner} thread; callbacks and KV events come
 *   from that worker's thread, so a sink shared by the fleet must be thread-safe.</li>
 *   <li>{@link #onVirtualClock}: every worker is attached to one {@link VirtualClockDriver}; callbacks and KV
 *   events come from the thread that steps the driver.</li>
 * </ul>
 * {@link #close} stops the runners (real time) and closes the workers, in reverse order. Idempotent.
 */
public final class SimulatedFleet implements AutoCloseable {
    private final List<SimulatedWorker> workers;
    private final List<RealTimeRunner> runners;
    private boolean closed;

    private SimulatedFleet(List<SimulatedWorker> workers, List<RealTimeRunner> runners) {
        this.workers = workers;
        this.runners = runners;
    }

    /** A fleet driven by the wall clock, one runner thread per worker. */
    public static SimulatedFleet realTime(SimEngineContext context, int size, KvEventSink sink) {
        return realTime(context, size, sink, EngineKvListener.NONE);
    }

    /** A fleet driven by the wall clock whose workers also tell {@code listener} about their caches. */
    public static SimulatedFleet realTime(SimEngineContext context, int size, KvEventSink sink,
                                          EngineKvListener listener) {
        List<SimulatedWorker> workers = create(context, size, sink, listener);
        List<RealTimeRunner> runners = new ArrayList<>(size);
        try {
            for (SimulatedWorker worker : workers) {
                runners.add(new RealTimeRunner(worker));
            }
        } catch (RuntimeException | Error e) {
            new SimulatedFleet(workers, runners).close();
            throw e;
        }
        return new SimulatedFleet(workers, runners);
    }

    /** A fleet driven by {@code driver}'s virtual clock. */
    public static SimulatedFleet onVirtualClock(SimEngineContext context, int size, KvEventSink sink,
                                                VirtualClockDriver driver) {
        List<SimulatedWorker> workers = create(context, size, sink, EngineKvListener.NONE);
        for (SimulatedWorker worker : workers) {
            driver.attach(worker);
        }
        return new SimulatedFleet(workers, List.of());
    }

    private static List<SimulatedWorker> create(SimEngineContext context, int size, KvEventSink sink,
                                                EngineKvListener listener) {
        if (size < 1) {
            throw new IllegalArgumentException("a fleet needs at least one worker, was " + size);
        }
        SimEngineContext ctx = context.validate();
        List<SimulatedWorker> workers = new ArrayList<>(size);
        for (int id = 0; id < size; id++) {
            workers.add(new SimulatedWorker(id, ctx, sink, listener));
        }
        return Collections.unmodifiableList(workers);
    }

    public int size() {
        return workers.size();
    }

    /** Worker {@code id} (0-based). */
    public SimulatedWorker worker(int id) {
        return workers.get(id);
    }

    /** The workers as engines, by id. */
    public List<Engine> engines() {
        return Collections.unmodifiableList(workers);
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (int i = runners.size() - 1; i >= 0; i--) {
            runners.get(i).close();
        }
        for (int i = workers.size() - 1; i >= 0; i--) {
            workers.get(i).close();
        }
    }
}
