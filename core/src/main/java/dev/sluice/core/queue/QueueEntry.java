package dev.sluice.core.queue;

import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.WorkerWithDpRank;

/**
 * A request as the policy queues see it: the queue snapshot taken at enqueue (class, tokens, cost, deadline,
 * priorities, lane), immutable while queued, plus the queue's own bookkeeping. The scheduler's request record
 * extends it, so queueing allocates nothing.
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
public abstract class QueueEntry {
    private int classIndex = -1;
    private long rawIslTokens;
    private long cachedTokens;
    private long costTokens = 1;
    private long dueAt = ClassifyRequest.NO_DEADLINE;
    private int strictPriority;
    private double priorityJump;
    private long enqueuedAt;
    private WorkerWithDpRank lane;
    private String tenant;

    // Queue bookkeeping, owned by PolicyQueues: enqueue order, the FCFS/WSPT key fixed at enqueue (EntryOrder),
    // the position in the lane heap and in the deadline heap, and the lane holding the entry (null when not queued).
    long sequence;
    long orderKey;
    int heapIndex = -1;
    int dueIndex = -1;
    Lane heap;
    // Tenant fairness (TenantLanes): the tenant's slot in its class (-1 when the class has none), and the tenant
    // table that charged it at dispatch, whose slot it holds until its service ends (a policy reload may have
    // replaced the queues meanwhile: the end is still charged where the dispatch was).
    int tenantSlot = -1;
    TenantLanes servedBy;
    // The tenant table that charged the prompt at a dispatch a retry sent back: its next dispatch charges no prompt.
    TenantLanes promptPaidTo;

    /**
     * Takes the queue snapshot; call before {@link PolicyQueues#enqueue}.
     *
     * @param classIndex     the resolved physical class in the profile.
     * @param rawIslTokens   input tokens.
     * @param cachedTokens   best cached tokens over eligible workers at enqueue, clamped to {@code rawIslTokens}.
     * @param costTokens     scheduling cost: the classifier's override, else {@code max(1, raw - cached)}.
     * @param dueAt          queue deadline (monotonic ns) or {@link ClassifyRequest#NO_DEADLINE}.
     * @param strictPriority higher first, before everything else.
     * @param priorityJump   seconds of FCFS head start / WSPT weight bonus; negative values count as 0.
     * @param enqueuedAt     the router's clock at enqueue (ns), for the FCFS arrival offset.
     * @param lane           the hard-pinned worker (exact lane), or {@code null} for the shared lane.
     */
    public final void setQueueSnapshot(int classIndex, long rawIslTokens, long cachedTokens, long costTokens,
                                       long dueAt, int strictPriority, double priorityJump, long enqueuedAt,
                                       WorkerWithDpRank lane) {
        this.classIndex = classIndex;
        this.rawIslTokens = rawIslTokens;
        this.cachedTokens = Math.min(cachedTokens, rawIslTokens);
        this.costTokens = Math.max(1, costTokens);
        this.dueAt = dueAt;
        this.strictPriority = strictPriority;
        this.priorityJump = Math.max(0.0, priorityJump);
        this.enqueuedAt = enqueuedAt;
        this.lane = lane;
    }

    /** Forgets the previous snapshot of a reused record; not while queued. */
    protected final void clearQueueSnapshot() {
        if (heap != null) {
            throw new IllegalStateException("the queue snapshot is immutable while queued");
        }
        classIndex = -1;
        rawIslTokens = 0;
        cachedTokens = 0;
        costTokens = 1;
        tenant = null;
        tenantSlot = -1;
        servedBy = null;
        promptPaidTo = null;
    }

    /**
     * Sets the tenant a tenant-fair class charges this entry to ({@code null}: the shared tenant of the
     * anonymous); call before {@link PolicyQueues#enqueue}, never while queued.
     */
    public final void setQueueTenant(String tenantName) {
        if (heap != null) {
            throw new IllegalStateException("the queue snapshot is immutable while queued");
        }
        this.tenant = tenantName;
    }

    /** The tenant set by {@link #setQueueTenant}, or {@code null}. */
    public final String queueTenant() {
        return tenant;
    }

    /**
     * Sets the deadline before the entry is queued (a classifier's {@code setDueAt}); while queued the snapshot is
     * immutable.
     */
    protected final void presetDueAt(long dueAtNanos) {
        if (heap != null) {
            throw new IllegalStateException("the queue snapshot is immutable while queued");
        }
        this.dueAt = dueAtNanos;
    }

    public final int classIndex() {
        return classIndex;
    }

    public final long rawIslTokens() {
        return rawIslTokens;
    }

    public final long cachedTokens() {
        return cachedTokens;
    }

    public final long uncachedTokens() {
        return rawIslTokens - cachedTokens;
    }

    public final long costTokens() {
        return costTokens;
    }

    /** The queue deadline (monotonic ns), or {@link ClassifyRequest#NO_DEADLINE}. */
    public final long dueAt() {
        return dueAt;
    }

    public final int strictPriority() {
        return strictPriority;
    }

    public final double priorityJump() {
        return priorityJump;
    }

    public final long enqueuedAt() {
        return enqueuedAt;
    }

    /** The exact-worker lane, or {@code null} for the shared lane. */
    public final WorkerWithDpRank lane() {
        return lane;
    }

    /** True while the entry is in a queue. */
    public final boolean isQueued() {
        return heap != null;
    }
}
