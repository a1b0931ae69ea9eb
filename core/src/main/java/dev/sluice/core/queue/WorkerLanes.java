package dev.sluice.core.queue;

import dev.sluice.core.api.WorkerWithDpRank;

/**
 * The parked exact lanes of one worker across all classes, as an intrusive doubly-linked list through
 * {@link Lane#prevParked}/{@link Lane#nextParked}, so a change of that worker rechecks exactly its blocked lanes.
 * Created once per worker seen in an exact lane, and kept.
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
final class WorkerLanes {
    final WorkerWithDpRank worker;
    private Lane firstParked;

    WorkerLanes(WorkerWithDpRank worker) {
        this.worker = worker;
    }

    void link(Lane lane) {
        lane.prevParked = null;
        lane.nextParked = firstParked;
        if (firstParked != null) {
            firstParked.prevParked = lane;
        }
        firstParked = lane;
    }

    void unlink(Lane lane) {
        if (lane.prevParked != null) {
            lane.prevParked.nextParked = lane.nextParked;
        } else {
            firstParked = lane.nextParked;
        }
        if (lane.nextParked != null) {
            lane.nextParked.prevParked = lane.prevParked;
        }
        lane.prevParked = null;
        lane.nextParked = null;
    }

    /** Removes and returns the first parked lane, or {@code null}. */
    Lane pollParked() {
        Lane lane = firstParked;
        if (lane != null) {
            unlink(lane);
        }
        return lane;
    }
}
