package dev.sluice.core.api;

/**
 * One request as a classifier sees it: what the frontend knows about it, and the decisions the classifier may
 * write before admitting it. The host owns the object; a classifier must return the same instance it was given
 * (a different object is refused as invalid metadata).
 *
 * <p>Only explicit overrides reach the queue; cache eligibility and the bucket are recomputed from the workers'
 * state when the admitted request enters its queue. Not thread-safe: use it on the scheduler thread, or inside the
 * one continuation it was handed to. It must not be kept after the classification finishes.
 */
public interface ClassifyRequest {
    /** {@link #dueAt()} when no deadline is set. */
    long NO_DEADLINE = Long.MAX_VALUE;

    /**
     * The host's id for the request, unique among the router's live requests: lifecycle events carry it, so a
     * classifier may key its state on it.
     */
    String requestId();

    /**
     * The client's own label for the request (its {@code x-request-id}), or {@code null}. Not unique: two clients
     * may send the same one at once, so never key state on it.
     */
    default String clientRequestId() {
        return null;
    }

    /** Session metadata from the request's headers, or {@code null}. */
    SessionContext sessionContext();

    /**
     * The caller's tenant as the frontend established it (from a configured header or the API key, only from
     * trusted sources when trust is configured), or {@code null}.
     */
    String tenant();

    /** Input size on the router's token basis (the same basis used for buckets, limits and DRR). */
    long inputTokens();

    /** Router ingress time on the host's monotonic clock, in nanoseconds; preserved across deferrals and retries. */
    long ingressAt();

    /** The live context-token high-water mark of this lifecycle. */
    RequestProgress progress();

    /** The worker this request is hard-pinned to, or {@code null}. A pinned request ignores selection targets. */
    WorkerWithDpRank pinnedWorker();

    /** The policy class override if one is set, else the class requested at ingress, else {@code null}. */
    String policyClass();

    /** The queue deadline this classifier set (monotonic nanoseconds), or {@link #NO_DEADLINE}. */
    long dueAt();

    /**
     * The scheduling cost: the override if set, else {@code max(1, inputTokens - min(cached, inputTokens))} where
     * {@code cached} is the best cached-token estimate over eligible workers at classification time.
     */
    long schedulingCostTokens();

    /** The soft worker target this classifier set, or {@code null}. */
    WorkerWithDpRank workerSelectionTarget();

    /**
     * Sets the policy class: a policy family or an explicit class of the active profile. A family keeps the cache
     * bucketing; an unknown name fails the request with a sanitized internal error when it enters the queue.
     */
    void setPolicyClass(String policyClass);

    /**
     * Bounds the wait in the router queue: already past when the request is enqueued, or passing while it waits,
     * rejects it with a queue deadline error (429). It does not end a deferral nor stop a running generation.
     */
    void setDueAt(long dueAtNanos);

    /** Replaces the cost used by queue scheduling (DRR charge, WSPT key); at least 1. Reserves nothing. */
    void setSchedulingCostTokens(long tokens);

    /** Prefers this worker when it is eligible; hard pins still win. */
    void setWorkerSelectionTarget(WorkerWithDpRank worker);

    /** Removes the soft worker target before placement; hard pins are untouched. */
    void clearWorkerSelectionTarget();

    /**
     * A handle that wakes this request if the classifier parks it with
     * {@link Classification#park(ClassifyRequest, long, AdmissionError)}. Safe to call from any thread; waking
     * before the park is returned is not lost.
     */
    Wakeup wakeup();

    /**
     * For hosts: the admit decision of this request made once ({@link Classification#newAdmit}) and answered by
     * every {@link Classification#admit} of it, so a pooled request is admitted without allocating; {@code null}
     * (the default) makes {@code admit} create one. Classifiers do not call it.
     */
    default Classification reusableAdmit() {
        return null;
    }
}
