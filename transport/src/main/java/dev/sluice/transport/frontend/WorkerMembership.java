package dev.sluice.transport.frontend;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.WorkerLoad;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.transport.engine.Engine;
import dev.sluice.transport.engine.EngineRuntimeConfig;
import dev.sluice.transport.engine.telemetry.TelemetrySink;
import dev.sluice.transport.metrics.WorkerHealthMetrics;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The engines' workers in the router: every rank joins at start-up with its engine's capacity; a worker that turns
 * unhealthy leaves (all its ranks), and rejoins with the same capacity when it recovers; transitions are counted in
 * the metrics. A capacity an engine publishes ({@link #onCapacity}, from its metrics scraper) replaces the
 * configured one, at once if the worker is in the router, else when it rejoins: a scraper never brings back a worker
 * that left. Engine load reports go to the router as they are (it drops those of a worker that left). Worker
 * {@code i} is engine {@code i}.
 *
 * <p>Thread-safe: each worker's joins, leaves and capacity changes happen under its own lock (which, unlike a
 * monitor, does not pin a virtual thread), so they reach the router in the order they were decided.
 */
final class WorkerMembership implements WorkerHealth.Listener, TelemetrySink {
    private final ModelRouter router;
    private final List<Engine> engines;
    private final WorkerHealthMetrics metrics;
    private final ReentrantLock[] locks;
    /** Guarded by the worker's lock: whether the worker is in the router. */
    private final boolean[] joined;
    /** Guarded by the worker's lock: each rank's capacity as its engine published it, -1 until then. */
    private final long[][] published;

    WorkerMembership(ModelRouter router, List<Engine> engines, WorkerHealthMetrics metrics) {
        this.router = router;
        this.engines = engines;
        this.metrics = metrics;
        this.locks = new ReentrantLock[engines.size()];
        this.joined = new boolean[engines.size()];
        this.published = new long[engines.size()][];
        for (int worker = 0; worker < engines.size(); worker++) {
            locks[worker] = new ReentrantLock();
            published[worker] = new long[engines.get(worker).runtimeConfig().dataParallelSize()];
            Arrays.fill(published[worker], -1);
        }
    }

    /** Registers every worker. */
    void joinAll() {
        for (int worker = 0; worker < engines.size(); worker++) {
            locks[worker].lock();
            try {
                join(worker);
            } finally {
                locks[worker].unlock();
            }
            metrics.tracked(worker);
        }
    }

    @Override
    public void onUnhealthy(int worker) {
        locks[worker].lock();
        try {
            joined[worker] = false;
            int ranks = engines.get(worker).runtimeConfig().dataParallelSize();
            for (int rank = 0; rank < ranks; rank++) {
                router.workerLeft(new WorkerWithDpRank(worker, rank));
            }
        } finally {
            locks[worker].unlock();
        }
        metrics.turnedUnhealthy(worker);
    }

    @Override
    public void onRecovered(int worker) {
        locks[worker].lock();
        try {
            join(worker);
        } finally {
            locks[worker].unlock();
        }
        metrics.recovered(worker);
    }

    @Override
    public void onLoad(WorkerLoad load) {
        router.workerLoad(load);
    }

    /** The rank's engine published its KV capacity: the rank books against it from now on. */
    @Override
    public void onCapacity(WorkerWithDpRank rank, long totalKvBlocks) {
        int worker = Math.toIntExact(rank.workerId());
        locks[worker].lock();
        try {
            published[worker][rank.dpRank()] = totalKvBlocks;
            if (joined[worker]) {
                router.workerJoined(rank, engines.get(worker).runtimeConfig().maxNumBatchedTokens(),
                    OptionalLong.of(totalKvBlocks));
            }
        } finally {
            locks[worker].unlock();
        }
    }

    /** Under the worker's lock. */
    private void join(int worker) {
        EngineRuntimeConfig config = engines.get(worker).runtimeConfig();
        for (int rank = 0; rank < config.dataParallelSize(); rank++) {
            long blocks = published[worker][rank] > 0 ? published[worker][rank] : config.totalKvBlocks();
            router.workerJoined(new WorkerWithDpRank(worker, rank), config.maxNumBatchedTokens(),
                OptionalLong.of(blocks));
        }
        joined[worker] = true;
    }
}
