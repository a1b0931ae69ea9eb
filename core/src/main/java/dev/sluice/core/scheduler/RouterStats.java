package dev.sluice.core.scheduler;

import dev.sluice.core.router.ModelRouter;
import dev.sluice.core.router.RouterStatistics;

/**
 * Counters of one model router, written only by its scheduler thread. Read from another thread they are
 * approximate (plain fields, no fences on the hot path); {@link ModelRouter#stats()} copies them.
 */
public final class RouterStats {
    long arrived;
    long admitted;
    long dispatched;
    long completed;
    long aborted;
    long rejected;
    long deferred;
    long parked;
    /** Requests parked right now. */
    int parkedNow;
    long expired;
    long retried;
    long queueRejected;
    long classifierFailures;
    long selectorFailures;
    long listenerFailures;
    long staleResults;
    long classifierTimeouts;

    RouterStatistics copy(int live, int queued, int deferralsRunning, long eventFailures, long overruns) {
        return new RouterStatistics(arrived, admitted, dispatched, completed, aborted, rejected, deferred, parked,
            expired, retried, queueRejected, classifierFailures, eventFailures, listenerFailures, staleResults, live,
            queued, deferralsRunning, parkedNow, overruns, classifierTimeouts);
    }
}
