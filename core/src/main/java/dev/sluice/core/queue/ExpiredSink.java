package dev.sluice.core.queue;

/** Receives entries the queues removed because their deadline passed; they were not charged any DRR credit. */
@FunctionalInterface
public interface ExpiredSink {
    void onExpired(QueueEntry entry);
}
