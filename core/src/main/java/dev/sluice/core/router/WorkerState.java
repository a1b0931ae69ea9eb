package dev.sluice.core.router;

import dev.sluice.core.api.WorkerWithDpRank;
import java.util.OptionalLong;

/**
 * One registered worker rank and the router's own load estimate of it: prefill tokens booked until the first
 * response item, requests booked until their terminal event. Owned by the scheduler thread; not thread-safe.
 */
final class WorkerState {
    final WorkerWithDpRank id;
    long maxNumBatchedTokens;
    OptionalLong totalKvBlocks;
    long activePrefillTokens;
    int activeRequests;
    /** False once the worker left; bookings still running on it are released when they end. */
    boolean registered = true;

    WorkerState(WorkerWithDpRank id, long maxNumBatchedTokens, OptionalLong totalKvBlocks) {
        this.id = id;
        this.maxNumBatchedTokens = maxNumBatchedTokens;
        this.totalKvBlocks = totalKvBlocks;
    }

    @Override
    public String toString() {
        return id + " prefill=" + activePrefillTokens + " active=" + activeRequests;
    }
}
