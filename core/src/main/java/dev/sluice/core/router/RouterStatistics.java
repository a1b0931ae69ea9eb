package dev.sluice.core.router;

/**
 * A copy of a model router's counters, read with acquire semantics from any thread. The scheduler publishes each
 * total and gauge with release semantics as it changes, so a reader sees changes in the order they happened: once
 * {@code live} has dropped back, the {@code completed} or {@code aborted} that ended the request is visible too.
 *
 * @param arrived            arrivals that got a lifecycle.
 * @param admitted           requests that entered a policy-class queue.
 * @param dispatched         dispatches to a worker (retries count again).
 * @param completed          lifecycles ended by {@code Completed}.
 * @param aborted            lifecycles aborted by the submitter (cancel, failure after dispatch).
 * @param rejected           requests rejected before dispatch (by the classifier or the router).
 * @param deferred           classifications handed to a continuation.
 * @param parked             classifications parked until a wake-up or deadline.
 * @param expired            requests rejected because their queue deadline passed.
 * @param retried            dispatch attempts returned to the queue.
 * @param queueRejected      rejections by a per-worker queue limit.
 * @param classifierFailures classifier exceptions and invalid decisions (sanitized 500s).
 * @param eventFailures      exceptions thrown by {@code onEvent}.
 * @param listenerFailures   exceptions thrown by admission listeners.
 * @param staleResults       continuation results dropped because their lifecycle had ended.
 * @param live               live lifecycles now.
 * @param queued             requests waiting in policy queues now.
 * @param deferralsRunning   continuations running now.
 * @param parkedNow          requests parked now (waiting for a wake-up or deadline, holding no thread).
 * @param dutyCycleOverruns  duty cycles that ran past the watchdog's threshold (a plugin blocked the scheduler).
 * @param classifierTimeouts classifications answered 504 {@code classifier_timeout}: deferred, parked or blocked
 *                           past the router's classification timeout.
 * @param selectorFailures   worker-selector exceptions (the request got a sanitized 500).
 * @param schedulerErrors    messages or duty cycles whose handling threw: each failed only the request it was about
 *                           (a sanitized 500, or an abort once dispatched), and the scheduler served on.
 * @param preempted          dispatched, unanswered requests preempted for higher-priority work (also in
 *                           {@code aborted}).
 * @param remoteBookings     other router replicas' bookings counted in the workers' load now.
 */
public record RouterStatistics(long arrived, long admitted, long dispatched, long completed, long aborted,
                               long rejected, long deferred, long parked, long expired, long retried,
                               long queueRejected, long classifierFailures, long eventFailures,
                               long listenerFailures, long staleResults, int live, int queued,
                               int deferralsRunning, int parkedNow, long dutyCycleOverruns,
                               long classifierTimeouts, long selectorFailures, long schedulerErrors,
                               long preempted, int remoteBookings) {
}
