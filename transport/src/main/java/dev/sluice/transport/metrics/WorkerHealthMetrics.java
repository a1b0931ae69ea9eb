package dev.sluice.transport.metrics;

import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The engine health of one model's workers, as the frontend's health tracker reports it: how many are unhealthy
 * now, and each worker's transitions to unhealthy and back. Written from any thread (the tracker's); read by
 * scrapes. Labels are bounded by the workers in the frontend now.
 */
public final class WorkerHealthMetrics {
    final AtomicLong unhealthy = new AtomicLong();
    final ConcurrentSkipListMap<Long, Transitions> transitions = new ConcurrentSkipListMap<>();

    /** No worker tracked yet. */
    public WorkerHealthMetrics() {
    }

    /** One worker's transitions. */
    static final class Transitions {
        final AtomicLong toUnhealthy = new AtomicLong();
        final AtomicLong toHealthy = new AtomicLong();
    }

    /** A worker is tracked: its counters are exported from now on, at 0 until it changes. */
    public void tracked(long workerId) {
        transitions.computeIfAbsent(workerId, id -> new Transitions());
    }

    /** A worker turned unhealthy and left the router. */
    public void turnedUnhealthy(long workerId) {
        unhealthy.incrementAndGet();
        transitions.computeIfAbsent(workerId, id -> new Transitions()).toUnhealthy.incrementAndGet();
    }

    /** A worker's engine left the frontend: its counters are no longer exported. */
    public void forgotten(long workerId, boolean wasUnhealthy) {
        if (wasUnhealthy) {
            unhealthy.decrementAndGet();
        }
        transitions.remove(workerId);
    }

    /** A worker recovered and rejoined the router. */
    public void recovered(long workerId) {
        unhealthy.decrementAndGet();
        transitions.computeIfAbsent(workerId, id -> new Transitions()).toHealthy.incrementAndGet();
    }
}
