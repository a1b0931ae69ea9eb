package dev.sluice.core.host;

import dev.sluice.core.api.WorkerWithDpRank;
import java.util.Objects;

/**
 * What a worker rank's engine last reported of its own load (from its metrics endpoint, say): KV blocks in use, and
 * requests running and waiting in the engine. The router takes the part of it that its own bookings do not explain
 * (other clients, other routers) as the worker's outside load, held until the next report, and keeps counting its
 * own bookings as they happen: a burst between two reports is not admitted twice. Immutable.
 *
 * @param worker           the rank the report is about.
 * @param usedKvBlocks     KV blocks in use in the engine ({@code kv_cache_usage × num_gpu_blocks}).
 * @param runningRequests  requests the engine is running (prefilling or decoding).
 * @param waitingRequests  requests queued in the engine, not yet running.
 */
public record WorkerLoad(WorkerWithDpRank worker, long usedKvBlocks, int runningRequests, int waitingRequests) {
    /** Validates the report: a worker, no negative figure. */
    public WorkerLoad {
        Objects.requireNonNull(worker, "worker");
        if (usedKvBlocks < 0 || runningRequests < 0 || waitingRequests < 0) {
            throw new IllegalArgumentException("a worker load has no negative figure, was " + usedKvBlocks
                + " blocks, " + runningRequests + " running, " + waitingRequests + " waiting");
        }
    }
}
