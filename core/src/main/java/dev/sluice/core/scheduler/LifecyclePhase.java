package dev.sluice.core.scheduler;

/**
 * Where a live request is in its lifecycle, and which moves are legal; only the scheduler thread reads or writes it.
 *
 * <pre>
 *   TERMINAL ─register─▶ REGISTERED ─admit─▶ QUEUED ─dispatch─▶ SENT ─first item─▶ RESPONDING
 *                            │  ▲               ▲                 │ retry              │ retry
 *                            │  └───────────────┼─────────────────┴────────────────────┘
 *                            ├─defer─▶ DEFERRED ┤ admit
 *                            └─park──▶ PARKED ──┘
 *   every phase but TERMINAL ─reject, abort, complete─▶ TERMINAL (the record awaits reuse)
 * </pre>
 */
enum LifecyclePhase {
    /** Registered, not yet classified (or back from a failed dispatch, to be queued again). */
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
    TERMINAL;

    /** True when a request in this phase may move to {@code next}. */
    boolean canMoveTo(LifecyclePhase next) {
        return switch (this) {
            case REGISTERED -> next == DEFERRED || next == PARKED || next == QUEUED || next == TERMINAL;
            case DEFERRED, PARKED -> next == QUEUED || next == TERMINAL;
            case QUEUED -> next == SENT || next == TERMINAL;
            case SENT -> next == RESPONDING || next == REGISTERED || next == TERMINAL;
            case RESPONDING -> next == REGISTERED || next == TERMINAL;
            case TERMINAL -> next == REGISTERED;
        };
    }

    /** True once the request was handed to a worker (and until its lifecycle ends or it is retried). */
    boolean dispatched() {
        return this == SENT || this == RESPONDING;
    }
}
