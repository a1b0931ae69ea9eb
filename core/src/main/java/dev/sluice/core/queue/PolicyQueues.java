package dev.sluice.core.queue;

import dev.sluice.core.config.PolicyClassSpec;
import dev.sluice.core.config.PolicyProfile;
import java.util.ArrayList;
import java.util.List;

/**
 * The policy-class queues of one model router: per-class limits checked before adding, ordering inside a class
 * (strict priority, then earliest deadline, then the FCFS or WSPT score, then arrival), lane-local head-of-line
 * blocking, and deficit round robin across classes charged in scheduling-cost tokens.
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
public final class PolicyQueues {
    private final PolicyProfile profile;
    private final PolicyClassSpec[] specs;
    private final List<List<QueueEntry>> queues;
    private final long[] deficit;
    private final long[] pendingRaw;
    private final long[] pendingCached;
    private int cursor;
    private int carried = -1;
    private long nextSequence;
    private int size;

    public PolicyQueues(PolicyProfile profile) {
        this.profile = profile;
        this.specs = profile.classes().toArray(new PolicyClassSpec[0]);
        this.queues = new ArrayList<>(specs.length);
        for (int i = 0; i < specs.length; i++) {
            queues.add(new ArrayList<>());
        }
        this.deficit = new long[specs.length];
        this.pendingRaw = new long[specs.length];
        this.pendingCached = new long[specs.length];
    }

    public PolicyProfile profile() {
        return profile;
    }

    /**
     * Adds an entry whose snapshot is set, unless a limit of its class refuses it. A never-queue class (a zero
     * limit) accepts only when its lane is dispatchable now.
     *
     * @return {@code null} when queued, else the rejection.
     */
    public QueueRejection enqueue(QueueEntry entry, int workerCount, DispatchGate gate) {
        int c = entry.classIndex();
        PolicyClassSpec spec = specs[c];
        if (spec.neverQueues()) {
            boolean free = entry.lane() == null ? gate.sharedDispatchable(spec)
                : gate.workerDispatchable(spec, entry.lane());
            if (!free) {
                return new QueueRejection(spec.name(), zeroLimitKind(spec), queues.get(c).size(), 0);
            }
        } else {
            QueueRejection rejection = checkLimits(spec, c, entry, workerCount);
            if (rejection != null) {
                return rejection;
            }
        }
        entry.sequence = nextSequence++;
        entry.heap = queues.get(c);
        queues.get(c).add(entry);
        pendingRaw[c] += entry.rawIslTokens();
        pendingCached[c] += entry.cachedTokens();
        size++;
        return null;
    }

    /** Removes a queued entry (cancellation, expiry); false if it was not queued here. */
    public boolean remove(QueueEntry entry) {
        if (entry.heap == null) {
            return false;
        }
        int c = entry.classIndex();
        if (!queues.get(c).remove(entry)) {
            return false;
        }
        detach(c, entry);
        return true;
    }

    /**
     * Removes and returns the next entry to dispatch, chosen by DRR across classes among dispatchable lane heads;
     * {@code null} when nothing can go now. Heads whose deadline is at or before {@code nowNs} are removed on the way,
     * handed to {@code expired}, and charged nothing.
     */
    public QueueEntry pollDispatchable(DispatchGate gate, long nowNs, ExpiredSink expired) {
        if (size == 0) {
            return null;
        }
        sweepExpired(nowNs, expired);
        if (carried >= 0) {
            QueueEntry head = dispatchableHead(carried, gate);
            if (head != null && head.costTokens() <= deficit[carried]) {
                return take(carried, head);
            }
            carried = -1;
        }
        for (int step = 0; step < specs.length; step++) {
            int c = (cursor + step) % specs.length;
            if (queues.get(c).isEmpty()) {
                deficit[c] = 0;
                continue;
            }
            QueueEntry head = dispatchableHead(c, gate);
            if (head == null) {
                continue;
            }
            if (head.costTokens() > deficit[c]) {
                deficit[c] += specs[c].quantum();
            }
            if (head.costTokens() <= deficit[c]) {
                return take(c, head);
            }
        }
        long rounds = Long.MAX_VALUE;
        for (int c = 0; c < specs.length; c++) {
            QueueEntry head = queues.get(c).isEmpty() ? null : dispatchableHead(c, gate);
            if (head != null) {
                long need = head.costTokens() - deficit[c];
                rounds = Math.min(rounds, (need + specs[c].quantum() - 1) / specs[c].quantum());
            }
        }
        if (rounds == Long.MAX_VALUE) {
            return null;
        }
        for (int c = 0; c < specs.length; c++) {
            if (!queues.get(c).isEmpty() && dispatchableHead(c, gate) != null) {
                deficit[c] = saturatingAdd(deficit[c], saturatingMultiply(rounds, specs[c].quantum()));
            }
        }
        for (int step = 0; step < specs.length; step++) {
            int c = (cursor + step) % specs.length;
            QueueEntry head = queues.get(c).isEmpty() ? null : dispatchableHead(c, gate);
            if (head != null && head.costTokens() <= deficit[c]) {
                return take(c, head);
            }
        }
        return null;
    }

    /** Queued entries in all classes. */
    public int size() {
        return size;
    }

    public int size(int classIndex) {
        return queues.get(classIndex).size();
    }

    public long pendingRawIslTokens(int classIndex) {
        return pendingRaw[classIndex];
    }

    public long pendingCachedTokens(int classIndex) {
        return pendingCached[classIndex];
    }

    /** The unspent DRR credit of a class. */
    public long deficit(int classIndex) {
        return deficit[classIndex];
    }

    private QueueEntry take(int c, QueueEntry head) {
        queues.get(c).remove(head);
        detach(c, head);
        deficit[c] -= head.costTokens();
        cursor = (c + 1) % specs.length;
        if (queues.get(c).isEmpty()) {
            deficit[c] = 0;
            carried = -1;
        } else {
            carried = deficit[c] > 0 ? c : -1;
        }
        return head;
    }

    private void detach(int c, QueueEntry entry) {
        entry.heap = null;
        pendingRaw[c] -= entry.rawIslTokens();
        pendingCached[c] -= entry.cachedTokens();
        size--;
    }

    private void sweepExpired(long nowNs, ExpiredSink expired) {
        for (int c = 0; c < specs.length; c++) {
            List<QueueEntry> queue = queues.get(c);
            for (int i = queue.size() - 1; i >= 0; i--) {
                QueueEntry entry = queue.get(i);
                if (entry.dueAt() <= nowNs) {
                    queue.remove(i);
                    detach(c, entry);
                    expired.onExpired(entry);
                }
            }
            if (queue.isEmpty()) {
                deficit[c] = 0;
            }
        }
    }

    /** The best dispatchable lane head of a class: the shared head if its lane is free, and each free exact lane. */
    private QueueEntry dispatchableHead(int c, DispatchGate gate) {
        List<QueueEntry> queue = queues.get(c);
        QueueEntry sharedHead = null;
        for (QueueEntry entry : queue) {
            if (entry.lane() == null && (sharedHead == null || before(specs[c], entry, sharedHead))) {
                sharedHead = entry;
            }
        }
        QueueEntry best = sharedHead != null && gate.sharedDispatchable(specs[c]) ? sharedHead : null;
        for (QueueEntry entry : queue) {
            if (entry.lane() == null || (best != null && before(specs[c], best, entry))) {
                continue;
            }
            if (isLaneHead(queue, specs[c], entry) && gate.workerDispatchable(specs[c], entry.lane())) {
                best = entry;
            }
        }
        return best;
    }

    private static boolean isLaneHead(List<QueueEntry> queue, PolicyClassSpec spec, QueueEntry candidate) {
        for (QueueEntry other : queue) {
            if (other != candidate && candidate.lane().equals(other.lane()) && before(spec, other, candidate)) {
                return false;
            }
        }
        return true;
    }

    /** The order inside a class: strict priority, deadline (any before none), policy score, sequence. */
    static boolean before(PolicyClassSpec spec, QueueEntry a, QueueEntry b) {
        if (a.strictPriority() != b.strictPriority()) {
            return a.strictPriority() > b.strictPriority();
        }
        if (a.dueAt() != b.dueAt()) {
            return a.dueAt() < b.dueAt();
        }
        double scoreA = score(spec, a);
        double scoreB = score(spec, b);
        if (scoreA != scoreB) {
            return scoreA > scoreB;
        }
        return a.sequence < b.sequence;
    }

    private static double score(PolicyClassSpec spec, QueueEntry entry) {
        return switch (spec.queuePolicy()) {
            case FCFS -> entry.priorityJump() - entry.enqueuedAt() / 1e9;
            case WSPT -> (1.0 + entry.priorityJump()) / entry.costTokens();
        };
    }

    private QueueRejection checkLimits(PolicyClassSpec spec, int c, QueueEntry entry, int workerCount) {
        if (spec.requestQueueLimitPerWorker().isPresent()) {
            long limit = saturatingMultiply(spec.requestQueueLimitPerWorker().getAsLong(), workerCount);
            if (queues.get(c).size() >= limit) {
                return new QueueRejection(spec.name(), QueueRejection.LimitKind.REQUESTS, queues.get(c).size(),
                    limit);
            }
        }
        if (spec.rawIslTokenQueueLimitPerWorker().isPresent()) {
            long limit = saturatingMultiply(spec.rawIslTokenQueueLimitPerWorker().getAsLong(), workerCount);
            if (pendingRaw[c] >= limit) {
                return new QueueRejection(spec.name(), QueueRejection.LimitKind.RAW_ISL_TOKENS, pendingRaw[c], limit);
            }
        }
        if (spec.cachedTokenQueueLimitPerWorker().isPresent()) {
            long limit = saturatingMultiply(spec.cachedTokenQueueLimitPerWorker().getAsLong(), workerCount);
            if (pendingCached[c] >= limit) {
                return new QueueRejection(spec.name(), QueueRejection.LimitKind.CACHED_TOKENS, pendingCached[c],
                    limit);
            }
        }
        return null;
    }

    private static QueueRejection.LimitKind zeroLimitKind(PolicyClassSpec spec) {
        if (spec.requestQueueLimitPerWorker().orElse(1) == 0) {
            return QueueRejection.LimitKind.REQUESTS;
        }
        if (spec.rawIslTokenQueueLimitPerWorker().orElse(1) == 0) {
            return QueueRejection.LimitKind.RAW_ISL_TOKENS;
        }
        return QueueRejection.LimitKind.CACHED_TOKENS;
    }

    static long saturatingMultiply(long a, long b) {
        long hi = Math.multiplyHigh(a, b);
        long lo = a * b;
        return (hi == 0 && lo >= 0) ? lo : Long.MAX_VALUE;
    }

    static long saturatingAdd(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
    }
}
