package dev.sluice.transport.engine.telemetry;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.WorkerLoad;

/**
 * Where a scraper's findings go: the router's view of a worker rank. Called from the scraper's thread, one call at a
 * time per scraper; implementations must be thread-safe across scrapers.
 */
public interface TelemetrySink {
    /** The rank's engine reported its load ({@code ModelRouter.workerLoad}). */
    void onLoad(WorkerLoad load);

    /**
     * The rank's engine published its KV capacity, in the router's blocks, and it differs from what was last said:
     * the router should book against it from now on (unless an operator's override wins).
     */
    void onCapacity(WorkerWithDpRank rank, long totalKvBlocks);
}
