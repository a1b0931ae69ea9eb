package dev.sluice.core.scheduler;

import dev.sluice.core.api.WorkerWithDpRank;
import java.util.OptionalLong;

/**
 * One registered worker rank's settings as it advertised them. Its load lives in the router's
 * {@code ActiveSequences}. Owned by the scheduler thread; not thread-safe.
 */
final class WorkerState {
    final WorkerWithDpRank id;
    long maxNumBatchedTokens;
    OptionalLong totalKvBlocks;

    WorkerState(WorkerWithDpRank id, long maxNumBatchedTokens, OptionalLong totalKvBlocks) {
        this.id = id;
        this.maxNumBatchedTokens = maxNumBatchedTokens;
        this.totalKvBlocks = totalKvBlocks;
    }

    @Override
    public String toString() {
        return id.toString();
    }
}
