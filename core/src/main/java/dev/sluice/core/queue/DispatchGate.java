package dev.sluice.core.queue;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.PolicyClassSpec;

/**
 * Tells the queues whether a lane's head could be placed now. Implemented by the scheduler's worker view; called
 * on the scheduler thread; must not allocate.
 */
public interface DispatchGate {
    /**
     * The shared lane of {@code spec}: dispatchable unless every eligible worker is busy for the class (with zero
     * workers it is dispatchable, so placement can answer "no endpoints").
     */
    boolean sharedDispatchable(PolicyClassSpec spec);

    /** An exact lane: dispatchable unless {@code worker} is busy for the class (or not registered). */
    boolean workerDispatchable(PolicyClassSpec spec, WorkerWithDpRank worker);
}
