package dev.sluice.core.host;

import dev.sluice.core.api.SessionContext;
import dev.sluice.core.api.WorkerWithDpRank;

/**
 * A read-only view of a live request for {@link SchedulerObserver}s: what arrived, what the classifier decided,
 * and the queue snapshot. Valid only during the callback (the record is reused afterwards).
 */
public interface RequestView {
    /** Where the request is when the observer is called. */
    enum Stage {
        /** Registered; the classifier is deciding now. */
        CLASSIFYING,
        /** Deferred to a continuation or parked. */
        WAITING_IN_CLASSIFIER,
        /** In its policy-class queue. */
        QUEUED,
        /** Dispatched; no response item yet. */
        DISPATCHED,
        /** The first response item arrived. */
        RESPONDING,
        /** The lifecycle has ended. */
        ENDED
    }

    /** The stage at the moment of the callback (before the change the callback reports). */
    Stage stage();

    long lifecycleId();

    /** The host's id for the request, unique among the router's live requests. */
    String requestId();

    /** The client's own label ({@code x-request-id}), or {@code null}; not unique. */
    String clientRequestId();

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

    /** The worker the request was last placed on, or {@code null} before dispatch. */
    WorkerWithDpRank worker();

    /** Complete KV blocks of the prompt the router matched against caches (0 when its tokens were not given). */
    int promptBlocks();

    /** The local hash of prompt block {@code block} (0 ≤ block &lt; {@link #promptBlocks()}). */
    long promptBlockHash(int block);

    /** The physical class index in the profile, once enqueued; else -1. */
    int classIndex();

    /** When the request entered its policy class (router clock, ns); meaningful once enqueued. */
    long enqueuedAt();

    /** Cached tokens of the queue snapshot (best eligible worker at enqueue). */
    long cachedTokens();

    /** Scheduling cost of the queue snapshot. */
    long costTokens();
}
