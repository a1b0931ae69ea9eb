package dev.sluice.core.router;

import dev.sluice.core.api.SessionContext;
import dev.sluice.core.api.WorkerWithDpRank;

/**
 * A read-only view of a live request for {@link SchedulerObserver}s: what arrived, what the classifier decided,
 * and the queue snapshot. Valid only during the callback (the record is reused afterwards).
 */
public interface RequestView {
    long lifecycleId();

    String requestId();

    long inputTokens();

    /** The class named at ingress ({@code x-dynamo-meta-policy-class}), or {@code null}. */
    String requestedPolicyClass();

    SessionContext sessionContext();

    /** The caller's tenant, or {@code null}. */
    String tenant();

    WorkerWithDpRank pinnedWorker();

    int requestedStrictPriority();

    double requestedPriorityJump();

    long ingressAt();

    /** The classifier's policy-class override, or {@code null}. */
    String policyClassOverride();

    /** The classifier's queue deadline, or {@link dev.sluice.core.api.ClassifyRequest#NO_DEADLINE}. */
    long dueAt();

    /** The classifier's cost override, or 0. */
    long costOverride();

    /** The classifier's soft worker target, or {@code null}. */
    WorkerWithDpRank workerSelectionTarget();

    /** The physical class index in the profile, once enqueued; else -1. */
    int classIndex();

    /** Cached tokens of the queue snapshot (best eligible worker at enqueue). */
    long cachedTokens();

    /** Scheduling cost of the queue snapshot. */
    long costTokens();
}
