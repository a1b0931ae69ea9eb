package dev.sluice.core.queue;

import dev.sluice.core.config.PolicyClassSpec;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.QueuePolicy;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The interim O(n) algorithm kept as a test-only model of the queue semantics: scans every entry to find lane
 * heads, asks the gate every time (no parking), and orders with an independent exact comparison. Differences from the
 * interim class, all deliberate and matching {@link PolicyQueues}: a class emptied by any removal loses its credit at
 * once, credit additions saturate, and FCFS compares arrival minus jump in exact integer nanoseconds.
 *
 * <p>Keeps its own bookkeeping, so the same entries can sit in both implementations.
 */
final class ReferencePolicyQueues {
    private final PolicyClassSpec[] specs;
    private final List<List<QueueEntry>> queues = new ArrayList<>();
    private final Map<QueueEntry, Long> sequences = new IdentityHashMap<>();
    private final long[] deficit;
    private final long[] pendingRaw;
    private final long[] pendingCached;
    private int cursor;
    private int carried = -1;
    private long nextSequence;

    ReferencePolicyQueues(PolicyProfile profile) {
        this.specs = profile.classes().toArray(new PolicyClassSpec[0]);
        for (int i = 0; i < specs.length; i++) {
            queues.add(new ArrayList<>());
        }
        this.deficit = new long[specs.length];
        this.pendingRaw = new long[specs.length];
        this.pendingCached = new long[specs.length];
    }

    QueueRejection enqueue(QueueEntry entry, int workerCount, DispatchGate gate) {
        int c = entry.classIndex();
        PolicyClassSpec spec = specs[c];
        List<QueueEntry> queue = queues.get(c);
        if (spec.neverQueues()) {
            boolean free = entry.lane() == null ? gate.sharedDispatchable(spec)
                : gate.workerDispatchable(spec, entry.lane());
            if (!free) {
                return new QueueRejection(spec.name(), zeroLimitKind(spec), queue.size(), 0);
            }
        } else {
            QueueRejection r = limit(spec, spec.requestQueueLimitPerWorker().isPresent(),
                spec.requestQueueLimitPerWorker().orElse(0), QueueRejection.LimitKind.REQUESTS, queue.size(),
                workerCount);
            if (r == null) {
                r = limit(spec, spec.rawIslTokenQueueLimitPerWorker().isPresent(),
                    spec.rawIslTokenQueueLimitPerWorker().orElse(0), QueueRejection.LimitKind.RAW_ISL_TOKENS,
                    pendingRaw[c], workerCount);
            }
            if (r == null) {
                r = limit(spec, spec.cachedTokenQueueLimitPerWorker().isPresent(),
                    spec.cachedTokenQueueLimitPerWorker().orElse(0), QueueRejection.LimitKind.CACHED_TOKENS,
                    pendingCached[c], workerCount);
            }
            if (r != null) {
                return r;
            }
        }
        sequences.put(entry, nextSequence++);
        queue.add(entry);
        pendingRaw[c] += entry.rawIslTokens();
        pendingCached[c] += entry.cachedTokens();
        return null;
    }

    boolean remove(QueueEntry entry) {
        if (!sequences.containsKey(entry)) {
            return false;
        }
        int c = entry.classIndex();
        queues.get(c).remove(entry);
        detach(c, entry);
        return true;
    }

    QueueEntry pollDispatchable(DispatchGate gate, long nowNs, ExpiredSink expired) {
        sweepExpired(nowNs, expired);
        if (sequences.isEmpty()) {
            return null;
        }
        if (carried >= 0) {
            QueueEntry head = dispatchableHead(carried, gate);
            if (head != null && head.costTokens() <= deficit[carried]) {
                return take(carried, head);
            }
        }
        List<Integer> candidates = new ArrayList<>();
        for (int step = 0; step < specs.length; step++) {
            int c = (cursor + step) % specs.length;
            QueueEntry head = dispatchableHead(c, gate);
            if (head == null) {
                continue;
            }
            if (head.costTokens() > deficit[c]) {
                deficit[c] = saturatingAdd(deficit[c], specs[c].quantum());
            }
            if (head.costTokens() <= deficit[c]) {
                return take(c, head);
            }
            candidates.add(c);
        }
        if (candidates.isEmpty()) {
            return null;
        }
        BigInteger rounds = null;
        for (int c : candidates) {
            BigInteger need = BigInteger.valueOf(dispatchableHead(c, gate).costTokens() - deficit[c]);
            BigInteger q = BigInteger.valueOf(specs[c].quantum());
            BigInteger r = need.add(q).subtract(BigInteger.ONE).divide(q);
            rounds = rounds == null || r.compareTo(rounds) < 0 ? r : rounds;
        }
        for (int c : candidates) {
            BigInteger sum = rounds.multiply(BigInteger.valueOf(specs[c].quantum()))
                .add(BigInteger.valueOf(deficit[c]));
            deficit[c] = sum.bitLength() >= 64 ? Long.MAX_VALUE : sum.longValue();
        }
        for (int c : candidates) {
            QueueEntry head = dispatchableHead(c, gate);
            if (head.costTokens() <= deficit[c]) {
                return take(c, head);
            }
        }
        throw new AssertionError("fast-forward made no class affordable");
    }

    int size() {
        return sequences.size();
    }

    int size(int c) {
        return queues.get(c).size();
    }

    long pendingRawIslTokens(int c) {
        return pendingRaw[c];
    }

    long pendingCachedTokens(int c) {
        return pendingCached[c];
    }

    long deficit(int c) {
        return deficit[c];
    }

    int roundCursor() {
        return cursor;
    }

    private QueueEntry take(int c, QueueEntry head) {
        queues.get(c).remove(head);
        deficit[c] -= head.costTokens();
        cursor = (c + 1) % specs.length;
        detach(c, head);
        carried = !queues.get(c).isEmpty() && deficit[c] > 0 ? c : -1;
        return head;
    }

    private void detach(int c, QueueEntry entry) {
        sequences.remove(entry);
        pendingRaw[c] -= entry.rawIslTokens();
        pendingCached[c] -= entry.cachedTokens();
        if (queues.get(c).isEmpty()) {
            deficit[c] = 0;
        }
    }

    private void sweepExpired(long nowNs, ExpiredSink expired) {
        List<QueueEntry> due = new ArrayList<>();
        for (List<QueueEntry> queue : queues) {
            for (QueueEntry entry : queue) {
                if (entry.dueAt() <= nowNs) {
                    due.add(entry);
                }
            }
        }
        due.sort((a, b) -> a.dueAt() != b.dueAt() ? Long.compare(a.dueAt(), b.dueAt())
            : Long.compare(sequences.get(a), sequences.get(b)));
        for (QueueEntry entry : due) {
            queues.get(entry.classIndex()).remove(entry);
            detach(entry.classIndex(), entry);
            expired.onExpired(entry);
        }
    }

    /** The best dispatchable lane head: the shared head if its lane is free, or a better head of a free exact lane. */
    private QueueEntry dispatchableHead(int c, DispatchGate gate) {
        List<QueueEntry> queue = queues.get(c);
        QueueEntry sharedHead = null;
        for (QueueEntry entry : queue) {
            if (entry.lane() == null && (sharedHead == null || before(specs[c], entry, sharedHead))) {
                sharedHead = entry;
            }
        }
        QueueEntry best = sharedHead != null && gate.sharedDispatchable(specs[c]) ? sharedHead : null;
        List<QueueEntry> laneHeads = new ArrayList<>();
        for (QueueEntry entry : queue) {
            if (entry.lane() != null && isLaneHead(queue, specs[c], entry)) {
                laneHeads.add(entry);
            }
        }
        for (QueueEntry head : laneHeads) {
            if ((best == null || before(specs[c], head, best)) && gate.workerDispatchable(specs[c], head.lane())) {
                best = head;
            }
        }
        return best;
    }

    private boolean isLaneHead(List<QueueEntry> queue, PolicyClassSpec spec, QueueEntry candidate) {
        for (QueueEntry other : queue) {
            if (other != candidate && candidate.lane().equals(other.lane()) && before(spec, other, candidate)) {
                return false;
            }
        }
        return true;
    }

    private boolean before(PolicyClassSpec spec, QueueEntry a, QueueEntry b) {
        if (a.strictPriority() != b.strictPriority()) {
            return a.strictPriority() > b.strictPriority();
        }
        if (a.dueAt() != b.dueAt()) {
            return a.dueAt() < b.dueAt();
        }
        int byScore = spec.queuePolicy() == QueuePolicy.FCFS
            ? fcfsKey(b).compareTo(fcfsKey(a))
            : Double.compare((1.0 + a.priorityJump()) / a.costTokens(), (1.0 + b.priorityJump()) / b.costTokens());
        if (byScore != 0) {
            return byScore > 0;
        }
        return sequences.get(a) < sequences.get(b);
    }

    /** Arrival minus jump in exact nanoseconds: lower is a higher FCFS score. */
    private static BigInteger fcfsKey(QueueEntry e) {
        BigInteger jumpNanos = BigInteger.valueOf(Math.round(e.priorityJump() * 1e9));
        return BigInteger.valueOf(e.enqueuedAt()).subtract(jumpNanos);
    }

    private static QueueRejection limit(PolicyClassSpec spec, boolean present, long perWorker,
                                        QueueRejection.LimitKind kind, long current, int workers) {
        if (!present) {
            return null;
        }
        BigInteger exact = BigInteger.valueOf(perWorker).multiply(BigInteger.valueOf(workers));
        long limit = exact.bitLength() >= 64 ? Long.MAX_VALUE : exact.longValue();
        return current >= limit ? new QueueRejection(spec.name(), kind, current, limit) : null;
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

    private static long saturatingAdd(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
    }
}
