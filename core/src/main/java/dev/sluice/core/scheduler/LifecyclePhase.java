package dev.sluice.core.scheduler;

/** Where a live request is in its lifecycle; only the scheduler thread reads or writes it. */
enum LifecyclePhase {
    /** Registered, not yet classified. */
    REGISTERED,
    /** A continuation decides on a virtual thread. */
    DEFERRED,
    /** Parked until its wake-up or deadline; no thread. */
    PARKED,
    /** Admitted and waiting in its policy class. */
    QUEUED,
    /** Dispatched to a worker. */
    SENT,
    /** The worker's first response item arrived. */
    RESPONDING,
    /** The terminal event was delivered; the record awaits reuse. */
    TERMINAL
}
