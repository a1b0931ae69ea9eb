package dev.sluice.transport.frontend;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.transport.engine.Engine;
import dev.sluice.transport.engine.EngineRuntimeConfig;
import dev.sluice.transport.metrics.WorkerHealthMetrics;
import java.util.List;
import java.util.OptionalLong;

/**
 * The engines' workers in the router: every rank joins at start-up with its engine's capacity; a worker that turns
 * unhealthy leaves (all its ranks), and rejoins with the same capacity when it recovers; transitions are counted in
 * the metrics. Worker {@code i} is engine {@code i}. Thread-safe (the router's methods are).
 */
final class WorkerMembership implements WorkerHealth.Listener {
    private final ModelRouter router;
    private final List<Engine> engines;
    private final WorkerHealthMetrics metrics;

    WorkerMembership(ModelRouter router, List<Engine> engines, WorkerHealthMetrics metrics) {
        this.router = router;
        this.engines = engines;
        this.metrics = metrics;
    }

    /** Registers every worker. */
    void joinAll() {
        for (int worker = 0; worker < engines.size(); worker++) {
            join(worker);
            metrics.tracked(worker);
        }
    }

    @Override
    public void onUnhealthy(int worker) {
        int ranks = engines.get(worker).runtimeConfig().dataParallelSize();
        for (int rank = 0; rank < ranks; rank++) {
            router.workerLeft(new WorkerWithDpRank(worker, rank));
        }
        metrics.turnedUnhealthy(worker);
    }

    @Override
    public void onRecovered(int worker) {
        join(worker);
        metrics.recovered(worker);
    }

    private void join(int worker) {
        EngineRuntimeConfig config = engines.get(worker).runtimeConfig();
        for (int rank = 0; rank < config.dataParallelSize(); rank++) {
            router.workerJoined(new WorkerWithDpRank(worker, rank), config.maxNumBatchedTokens(),
                OptionalLong.of(config.totalKvBlocks()));
        }
    }
}
