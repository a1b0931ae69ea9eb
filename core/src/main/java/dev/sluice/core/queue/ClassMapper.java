package dev.sluice.core.queue;

import dev.sluice.core.config.PolicyClassSpec;

/**
 * Where a queued entry goes when its queues are rebuilt for a reloaded profile (see
 * {@link PolicyQueues#moveAllTo}). Called on the scheduler thread.
 */
@FunctionalInterface
public interface ClassMapper {
    /**
     * @param entry the entry, out of its old class, its snapshot still the old one.
     * @param from  the class it was queued in.
     * @return its class index in the target's profile.
     */
    int classFor(QueueEntry entry, PolicyClassSpec from);
}
