package dev.sluice.core.api;

/**
 * One data-parallel rank of a worker: the unit the router places requests on. Rank 0 is a worker without data
 * parallelism, or its first rank. Ordered by worker id, then rank.
 *
 * @param workerId the worker's id, unique within a model router.
 * @param dpRank   the data-parallel rank, 0 or more.
 */
public record WorkerWithDpRank(long workerId, int dpRank) implements Comparable<WorkerWithDpRank> {
    public WorkerWithDpRank {
        if (dpRank < 0) {
            throw new IllegalArgumentException("dpRank must be >= 0, was " + dpRank);
        }
    }

    /** Rank 0 of a worker. */
    public static WorkerWithDpRank of(long workerId) {
        return new WorkerWithDpRank(workerId, 0);
    }

    @Override
    public int compareTo(WorkerWithDpRank other) {
        int byId = Long.compare(workerId, other.workerId);
        return byId != 0 ? byId : Integer.compare(dpRank, other.dpRank);
    }

    @Override
    public String toString() {
        return "worker " + workerId + "/" + dpRank;
    }
}
