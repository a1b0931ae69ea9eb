package dev.sluice.transport.cluster;

/**
 * How one model's workers are named across replicas: each replica numbers its workers its own way, so bookings
 * travel with the engine's address and each replica maps it back to its own worker id. Thread-safe.
 */
public interface WorkerAddresses {
    /** The engine address of worker {@code workerId}, or null when this replica has no such worker. */
    String address(long workerId);

    /** The active worker whose engine is at {@code address}, or -1 when this replica has none there. */
    long worker(String address);
}
