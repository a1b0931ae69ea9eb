package dev.sluice.transport.engine.telemetry;

import java.util.Objects;

/**
 * One worker whose engine a scraper reads, as the router knows it.
 *
 * @param workerId           the worker's id in the router.
 * @param dataParallelRanks  the ranks the worker has in the router ({@code 0..n-1}); an engine that publishes more
 *                           ranks than that while the worker has one has them summed into rank 0.
 * @param model              the model name the engine serves it under (its {@code model_name} label).
 * @param routerBlockSize    tokens per block in the router, the unit its KV figures are converted to.
 * @param configuredKvBlocks each rank's KV capacity in router blocks as configured: used to weigh the engine's
 *                           usage fraction when it publishes no size, and the capacity when it does not win.
 * @param capacityFromEngine whether the engine's published KV size becomes the rank's capacity in the router
 *                           (false when an operator's override is given).
 */
public record ScrapeTarget(int workerId, int dataParallelRanks, String model, int routerBlockSize,
                           long configuredKvBlocks, boolean capacityFromEngine) {
    public ScrapeTarget {
        Objects.requireNonNull(model, "model");
        if (workerId < 0 || dataParallelRanks < 1 || routerBlockSize < 1 || configuredKvBlocks < 1) {
            throw new IllegalArgumentException("a scrape target needs a worker id >= 0 and at least one rank, "
                + "block size and block, was worker " + workerId + ", " + dataParallelRanks + " ranks, block size "
                + routerBlockSize + ", " + configuredKvBlocks + " blocks");
        }
    }
}
