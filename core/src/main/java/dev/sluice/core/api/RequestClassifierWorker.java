package dev.sluice.core.api;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * A registered worker rank as the classifier's factory context sees it.
 *
 * @param worker        the worker and rank.
 * @param totalKvBlocks the advertised total KV capacity in blocks (not free blocks), empty when unpublished.
 */
public record RequestClassifierWorker(WorkerWithDpRank worker, OptionalLong totalKvBlocks) {
    public RequestClassifierWorker {
        Objects.requireNonNull(worker, "worker");
        Objects.requireNonNull(totalKvBlocks, "totalKvBlocks");
    }
}
