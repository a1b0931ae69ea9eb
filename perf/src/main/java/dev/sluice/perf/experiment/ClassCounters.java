package dev.sluice.perf.experiment;

/**
 * What the router did with the requests of one policy family that arrived in one load step. Filled by
 * {@link QualityObserver} on the simulation thread; not thread-safe.
 */
final class ClassCounters {
    long submitted;
    long enqueued;
    long queueRejected;
    long expired;
    long otherRejected;
    long dispatched;
    long dispatchedLate;
    long responded;
    long completed;
    long good;
    long aborted;

    void add(ClassCounters other) {
        submitted += other.submitted;
        enqueued += other.enqueued;
        queueRejected += other.queueRejected;
        expired += other.expired;
        otherRejected += other.otherRejected;
        dispatched += other.dispatched;
        dispatchedLate += other.dispatchedLate;
        responded += other.responded;
        completed += other.completed;
        good += other.good;
        aborted += other.aborted;
    }

    /** Rejections of every kind. */
    long rejected() {
        return queueRejected + expired + otherRejected;
    }
}
