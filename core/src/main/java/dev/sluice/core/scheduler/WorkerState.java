package dev.sluice.core.scheduler;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.select.ActiveLoad;
import dev.sluice.core.select.SelectionCandidates;
import java.util.OptionalLong;

/**
 * One registered worker rank's settings as it advertised them, and the outside load its engine last reported. The
 * router's own load on it lives in {@code ActiveSequences}. Owned by the scheduler thread; not thread-safe.
 */
final class WorkerState implements SelectionCandidates.Rank {
    final WorkerWithDpRank id;
    long maxNumBatchedTokens;
    /** Advertised KV capacity in blocks, {@code -1} when unpublished: a primitive, as placement reads it per rank. */
    long totalKvBlocks;
    /** From the engine's last report: KV blocks in use beyond the router's own bookings at the time. */
    long outsideBlocks;
    /** From the engine's last report: requests waiting in the engine beyond all the router has booked there. */
    long outsideWaiting;
    /**
     * The router's own load on this rank, kept here so booking needs no lookup; placement reads its figures by its
     * slot from {@code ActiveSequences}' arrays.
     */
    final ActiveLoad load;

    WorkerState(WorkerWithDpRank id, long maxNumBatchedTokens, OptionalLong totalKvBlocks, ActiveLoad load) {
        this.id = id;
        this.load = load;
        settings(maxNumBatchedTokens, totalKvBlocks);
    }

    /** Takes the rank's advertised settings (at join, and when it joins again with new ones). */
    void settings(long maxNumBatchedTokens, OptionalLong totalKvBlocks) {
        this.maxNumBatchedTokens = maxNumBatchedTokens;
        this.totalKvBlocks = totalKvBlocks.orElse(-1);
    }

    @Override
    public WorkerWithDpRank id() {
        return id;
    }

    @Override
    public long outsideBlocks() {
        return outsideBlocks;
    }

    @Override
    public long totalKvBlocks() {
        return totalKvBlocks;
    }

    @Override
    public long maxNumBatchedTokens() {
        return maxNumBatchedTokens;
    }

    /** The advertised KV capacity, if published. */
    OptionalLong advertisedKvBlocks() {
        return totalKvBlocks < 0 ? OptionalLong.empty() : OptionalLong.of(totalKvBlocks);
    }

    @Override
    public String toString() {
        return id.toString();
    }
}
