package dev.sluice.core.api;

import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import org.agrona.concurrent.NanoClock;

/**
 * Router-wide information handed to a classifier factory: the KV block size, a view of the registered workers,
 * the buckets shared with other replicas, and the router's clock (read time only through it, so that tests and
 * replays can drive time).
 */
public final class RequestClassifierContext {
    private final String model;
    private final int blockSize;
    private final Supplier<List<RequestClassifierWorker>> workers;
    private final NanoClock clock;
    private final ClassifierTimers timers;
    private final KvInUseView kvInUse;
    private final SharedBudgets sharedBudgets;

    /** A context without periodic work (tasks given to {@link #timers()} never run): for unit tests. */
    public RequestClassifierContext(String model, int blockSize, Supplier<List<RequestClassifierWorker>> workers,
                                    NanoClock clock) {
        this(model, blockSize, workers, clock, ClassifierTimers.NONE, KvInUseView.NONE);
    }

    /** A context without a view of the KV in use (every rank reads as unknown). */
    public RequestClassifierContext(String model, int blockSize, Supplier<List<RequestClassifierWorker>> workers,
                                    NanoClock clock, ClassifierTimers timers) {
        this(model, blockSize, workers, clock, timers, KvInUseView.NONE);
    }

    /** A context without a shared budget store ({@link SharedBudgets#NONE}). */
    public RequestClassifierContext(String model, int blockSize, Supplier<List<RequestClassifierWorker>> workers,
                                    NanoClock clock, ClassifierTimers timers, KvInUseView kvInUse) {
        this(model, blockSize, workers, clock, timers, kvInUse, SharedBudgets.NONE);
    }

    /**
     * @param model     the model this router serves.
     * @param blockSize tokens per KV block in this router's hash domain.
     * @param workers   a non-blocking snapshot of the registered worker ranks; must not do I/O.
     * @param clock     the router's monotonic clock.
     * @param timers    periodic work on the router's scheduler thread.
     * @param kvInUse   the KV blocks in use per rank, read on the scheduler thread.
     * @param sharedBudgets the rate buckets this router shares with its replicas, for cluster-scoped limits.
     */
    public RequestClassifierContext(String model, int blockSize, Supplier<List<RequestClassifierWorker>> workers,
                                    NanoClock clock, ClassifierTimers timers, KvInUseView kvInUse,
                                    SharedBudgets sharedBudgets) {
        this.model = Objects.requireNonNull(model, "model");
        if (blockSize <= 0) {
            throw new IllegalArgumentException("blockSize must be > 0, was " + blockSize);
        }
        this.blockSize = blockSize;
        this.workers = Objects.requireNonNull(workers, "workers");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.timers = Objects.requireNonNull(timers, "timers");
        this.kvInUse = Objects.requireNonNull(kvInUse, "kvInUse");
        this.sharedBudgets = Objects.requireNonNull(sharedBudgets, "sharedBudgets");
    }

    public String model() {
        return model;
    }

    public int blockSize() {
        return blockSize;
    }

    /** The registered worker ranks now; a new list on each call. Ranks appear and vanish as workers come and go. */
    public List<RequestClassifierWorker> workers() {
        return workers.get();
    }

    /** The router's monotonic clock, in nanoseconds; the same time base as {@link ClassifyRequest#ingressAt()}. */
    public NanoClock clock() {
        return clock;
    }

    /** Periodic work on the scheduler thread, e.g. a reconcile loop. */
    public ClassifierTimers timers() {
        return timers;
    }

    /** The KV blocks in use per rank now; read only on the scheduler thread. */
    public KvInUseView kvInUse() {
        return kvInUse;
    }

    /** The rate buckets shared with the other replicas; {@link SharedBudgets#NONE} without a store. Thread-safe. */
    public SharedBudgets sharedBudgets() {
        return sharedBudgets;
    }

    @Override
    public String toString() {
        return "RequestClassifierContext[blockSize=" + blockSize + "]";
    }
}
