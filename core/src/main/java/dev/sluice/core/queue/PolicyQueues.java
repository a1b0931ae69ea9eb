package dev.sluice.core.queue;

import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.PolicyClassSpec;
import dev.sluice.core.config.PolicyProfile;

/**
 * The policy-class queues of one model router: per-class limits checked before adding, ordering inside a class
 * (strict priority, then earliest deadline, then the FCFS or WSPT score, then arrival), lane-local head-of-line
 * blocking, and deficit round robin across classes charged in scheduling-cost tokens.
 *
 * <p><b>Tenant fairness.</b> A class with {@code tenant_fairness: vtc} splits its shared lane by tenant
 * ({@link TenantLanes}): a poll takes the head of the tenant charged least, charges it the prompt, and
 * {@link #serviceEnded} charges the generated tokens; the scheduler must call it once at the end of every dispatched
 * request's service (completion, abort, rejection after the poll, retry).
 *
 * <p>Every operation is O(log n) in the queued entries (a poll also visits each ready class at most once) and, once
 * the lanes of the workers in use exist and the arrays have grown, allocates nothing; only a rejection allocates
 * its {@link QueueRejection}.
 *
 * <p><b>Rechecks.</b> A lane whose head the {@link DispatchGate} refused is parked and not asked again until told
 * that what the answer depends on changed. The scheduler must call {@link #onWorkerChanged} after any change of one
 * worker's load or state (booking, prefill completion, free, config update) and {@link #onLoadChanged} after a change
 * that may affect any worker (worker added or removed, periodic recheck, eligibility or overload providers), before
 * its next {@link #pollDispatchable}. A change it does not report leaves the parked lanes waiting.
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
public final class PolicyQueues {
    private final PolicyProfile profile;
    private final ClassQueue[] classes;
    private final LaneParking parking;
    private final DeficitRoundRobin drr;
    private final DeadlineIndex deadlines = new DeadlineIndex();
    private long nextSequence;
    private int size;

    public PolicyQueues(PolicyProfile profile) {
        this.profile = profile;
        int n = profile.classes().size();
        ReadyClasses ready = new ReadyClasses(n);
        this.parking = new LaneParking(ready);
        this.classes = new ClassQueue[n];
        for (int i = 0; i < n; i++) {
            classes[i] = new ClassQueue(i, profile.classes().get(i), ready, parking);
        }
        this.drr = new DeficitRoundRobin(classes, ready);
    }

    public PolicyProfile profile() {
        return profile;
    }

    /**
     * Adds an entry whose snapshot is set, unless a limit of its class refuses it. A never-queue class (a zero
     * limit) accepts only when its lane is dispatchable now.
     *
     * @return {@code null} when queued, else the rejection.
     * @throws IllegalStateException if the entry is already queued (a scheduler bug that would corrupt the heaps).
     */
    public QueueRejection enqueue(QueueEntry entry, int workerCount, DispatchGate gate) {
        if (entry.heap != null) {
            throw new IllegalStateException("entry is already queued");
        }
        ClassQueue cq = classes[entry.classIndex()];
        PolicyClassSpec spec = cq.spec;
        if (spec.neverQueues()) {
            QueueRejection refused = QueueLimits.checkNeverQueue(cq, entry, gate);
            if (refused != null) {
                return refused;
            }
            // The gate said free just now, so a lane parked by an older answer must not hold this entry back.
            cq.unparkLaneOf(entry.lane());
        } else {
            QueueRejection rejection = QueueLimits.check(cq, workerCount);
            if (rejection != null) {
                return rejection;
            }
        }
        entry.sequence = nextSequence++;
        entry.orderKey = EntryOrder.orderKey(spec.queuePolicy(), entry);
        cq.add(entry);
        if (entry.dueAt() != ClassifyRequest.NO_DEADLINE) {
            deadlines.add(entry);
        }
        size++;
        return null;
    }

    /** Removes a queued entry (cancellation, expiry); false if it was not queued here. */
    public boolean remove(QueueEntry entry) {
        Lane lane = entry.heap;
        if (lane == null || entry.classIndex() < 0 || entry.classIndex() >= classes.length
            || lane.owner != classes[entry.classIndex()]) {
            return false;
        }
        detach(lane.owner, entry);
        dropped(lane.owner, entry);
        return true;
    }

    /**
     * Takes a queued entry out to dispatch it outside {@link #pollDispatchable} (the head a preemption places): a
     * tenant-fair class charges its tenant the prompt and holds the tenant for it until {@link #serviceEnded}, as a
     * poll does. False if it was not queued here.
     */
    public boolean removeToDispatch(QueueEntry entry) {
        Lane lane = entry.heap;
        if (lane == null || entry.classIndex() < 0 || entry.classIndex() >= classes.length
            || lane.owner != classes[entry.classIndex()]) {
            return false;
        }
        detach(lane.owner, entry);
        if (lane.owner.tenants != null) {
            lane.owner.tenants.dispatched(entry);
        }
        return true;
    }

    /**
     * The service of a dispatched entry ended (completed, aborted, rejected after the poll; a retry is {@link
     * #serviceRetried}): a tenant-fair class charges its tenant the generated tokens and stops holding the tenant for
     * it. Safe to call for any entry, once or more; only the first call after a dispatch counts.
     */
    public void serviceEnded(QueueEntry entry, long outputTokens) {
        TenantLanes servedBy = entry.servedBy;
        if (servedBy != null) {
            servedBy.ended(entry, outputTokens);
        }
    }

    /**
     * A dispatched entry is sent back to be queued again (a failed dispatch attempt, retried): its service ends with
     * nothing generated, and the prompt its tenant was charged at that dispatch is not charged again when the class
     * that charged it dispatches it next. Safe to call for any entry.
     */
    public void serviceRetried(QueueEntry entry) {
        TenantLanes servedBy = entry.servedBy;
        if (servedBy != null) {
            servedBy.ended(entry, 0);
            entry.promptPaidTo = servedBy;
        }
    }

    /**
     * Removes and returns the next entry to dispatch, chosen by DRR across classes among dispatchable lane heads;
     * {@code null} when nothing can go now. Entries whose deadline is at or before {@code nowNs} are removed first,
     * handed to {@code expired}, and charged nothing.
     */
    public QueueEntry pollDispatchable(DispatchGate gate, long nowNs, ExpiredSink expired) {
        sweepExpired(nowNs, expired);
        if (size == 0) {
            return null;
        }
        QueueEntry next = drr.select(gate);
        if (next != null) {
            ClassQueue cq = classes[next.classIndex()];
            detach(cq, next);
            if (cq.tenants != null) {
                cq.tenants.dispatched(next);
            }
            drr.settle(cq);
        }
        return next;
    }

    /**
     * Removes every entry whose deadline is at or before {@code nowNs}, earliest first, into {@code expired}; costs
     * O(expired · log n).
     *
     * @return how many expired.
     */
    public int sweepExpired(long nowNs, ExpiredSink expired) {
        int count = 0;
        QueueEntry entry;
        while ((entry = deadlines.peek()) != null && entry.dueAt() <= nowNs) {
            ClassQueue cq = classes[entry.classIndex()];
            detach(cq, entry);
            dropped(cq, entry);
            expired.onExpired(entry);
            count++;
        }
        return count;
    }

    /** The earliest deadline among queued entries (for the scheduler's timer), or {@code NO_DEADLINE}. */
    public long nextDueAt() {
        return deadlines.earliestDueAt();
    }

    /** One worker's load or state changed: recheck its parked exact lanes and every parked shared lane. */
    public void onWorkerChanged(WorkerWithDpRank worker) {
        parking.onWorkerChanged(worker);
    }

    /** Anything may have changed: recheck every parked lane. */
    public void onLoadChanged() {
        parking.onLoadChanged();
    }

    /**
     * The head of a class's shared lane (the unpinned entries; in a tenant-fair class the head of the tenant charged
     * least), or {@code null}; read-only (preemption).
     */
    public QueueEntry sharedHead(int classIndex) {
        return classes[classIndex].sharedHead();
    }

    /**
     * In a tenant-fair class, the head of the tenant ranked second (the shared head's tenant ranks first), else
     * {@code null}; read-only (preemption of over-served tenants, when the first tenant's head has no victim).
     */
    public QueueEntry runnerUpHead(int classIndex) {
        TenantLanes t = classes[classIndex].tenants;
        return t == null ? null : t.runnerUp();
    }

    /** Queued entries in all classes. */
    public int size() {
        return size;
    }

    public int size(int classIndex) {
        return classes[classIndex].size;
    }

    public long pendingRawIslTokens(int classIndex) {
        return classes[classIndex].pendingRaw;
    }

    public long pendingCachedTokens(int classIndex) {
        return classes[classIndex].pendingCached;
    }

    /** The unspent DRR credit of a class. */
    public long deficit(int classIndex) {
        return classes[classIndex].deficit;
    }

    /** The class the next DRR ring pass starts from. */
    public int roundCursor() {
        return drr.cursor();
    }

    /** Whether the class shares its dispatches between tenants (VTC). */
    public boolean tenantFair(int classIndex) {
        return classes[classIndex].tenants != null;
    }

    /** Tenants of a tenant-fair class with a request queued or in service; 0 for another class. */
    public int activeTenants(int classIndex) {
        TenantLanes t = classes[classIndex].tenants;
        return t == null ? 0 : t.activeTenants();
    }

    /**
     * Fills {@code shares} with the shares of the class's tracked service held by its most served tenants, largest
     * first; zeros for a class without tenant fairness. O(tracked tenants · shares.length): for metrics, not per
     * request.
     */
    public void topTenantShares(int classIndex, double[] shares) {
        TenantLanes t = classes[classIndex].tenants;
        if (t == null) {
            java.util.Arrays.fill(shares, 0.0);
        } else {
            t.topShares(shares);
        }
    }

    /** A tenant's virtual counter in a tenant-fair class (NaN when not tracked or the class has none). */
    public double tenantCounter(int classIndex, String tenant) {
        TenantLanes t = classes[classIndex].tenants;
        return t == null ? Double.NaN : t.counter(tenant);
    }

    /**
     * Whether the tenant of {@code victim} (dispatched from {@code head}'s tenant-fair class, in service) is
     * over-served against the tenant of {@code head} (a queued entry): another tenant, charged at least as much less
     * twice the largest charge one request has caused in the class, holding two more requests in service, or one
     * more and more queued, and at least twice as many in service; then how many more requests it holds in service
     * (1 or above), else -1 (also for another class or a class without fairness). O(1); read-only (preemption of
     * over-served tenants).
     */
    public int overServed(QueueEntry victim, QueueEntry head) {
        TenantLanes t = classes[head.classIndex()].tenants;
        return t == null ? -1 : t.overServed(victim, head);
    }

    private static void dropped(ClassQueue cq, QueueEntry entry) {
        if (cq.tenants != null) {
            cq.tenants.dropped(entry);
        }
    }

    /**
     * Moves every queued entry into {@code target}, a fresh set of queues for a reloaded profile: each goes to the
     * class {@code mapper} names, keeps its snapshot (tokens, cost, deadline, priorities, lane, enqueue time) and its
     * place in arrival order, and is ordered by its new class's queue policy; no limit is checked (it was admitted).
     * A class of the same name keeps its DRR credit. Leaves these queues empty. Cold path: allocates.
     *
     * @return the entries moved, in arrival order.
     */
    public java.util.List<QueueEntry> moveAllTo(PolicyQueues target, ClassMapper mapper) {
        java.util.List<QueueEntry> entries = new java.util.ArrayList<>(size);
        long[] credit = new long[target.classes.length];
        for (ClassQueue cq : classes) {
            int same = target.profile.classIndex(cq.spec.name());
            if (same >= 0) {
                credit[same] = cq.deficit;
            }
            cq.drainInto(entries);
        }
        entries.sort(java.util.Comparator.comparingLong(e -> e.sequence));
        for (QueueEntry entry : entries) {
            deadlines.remove(entry);
            size--;
            int to = mapper.classFor(entry, classes[entry.classIndex()].spec);
            entry.setQueueSnapshot(to, entry.rawIslTokens(), entry.cachedTokens(), entry.costTokens(), entry.dueAt(),
                entry.strictPriority(), entry.priorityJump(), entry.enqueuedAt(), entry.lane());
            target.adopt(entry);
        }
        target.nextSequence = Math.max(target.nextSequence, nextSequence);
        for (int i = 0; i < target.classes.length; i++) {
            if (target.classes[i].size > 0) {
                target.classes[i].deficit = credit[i];
            }
        }
        return entries;
    }

    /** Adds a moved entry with its sequence kept. */
    private void adopt(QueueEntry entry) {
        ClassQueue cq = classes[entry.classIndex()];
        entry.orderKey = EntryOrder.orderKey(cq.spec.queuePolicy(), entry);
        cq.add(entry);
        if (entry.dueAt() != ClassifyRequest.NO_DEADLINE) {
            deadlines.add(entry);
        }
        size++;
    }

    private void detach(ClassQueue cq, QueueEntry entry) {
        cq.remove(entry);
        deadlines.remove(entry);
        size--;
    }
}
