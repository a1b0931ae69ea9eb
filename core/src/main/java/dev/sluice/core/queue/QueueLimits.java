package dev.sluice.core.queue;

import dev.sluice.core.config.PolicyClassSpec;
import java.util.OptionalLong;

/**
 * The per-class queue limits (Dynamo §5.2): checked against usage before adding, so the request that crosses a
 * limit is accepted and the next is refused; effective limit = per-worker value × discovered workers, saturating;
 * checked in the order requests, raw ISL tokens, cached tokens. A class with any zero limit never queues.
 *
 * <p>Stateless; called on the scheduler thread.
 */
final class QueueLimits {
    private QueueLimits() {
    }

    /** The first limit the class has reached, or {@code null}. */
    static QueueRejection check(ClassQueue cq, int workerCount) {
        PolicyClassSpec spec = cq.spec;
        QueueRejection r = reached(spec, spec.requestQueueLimitPerWorker(), QueueRejection.LimitKind.REQUESTS,
            cq.size, workerCount);
        if (r == null) {
            r = reached(spec, spec.rawIslTokenQueueLimitPerWorker(), QueueRejection.LimitKind.RAW_ISL_TOKENS,
                cq.pendingRaw, workerCount);
        }
        if (r == null) {
            r = reached(spec, spec.cachedTokenQueueLimitPerWorker(), QueueRejection.LimitKind.CACHED_TOKENS,
                cq.pendingCached, workerCount);
        }
        return r;
    }

    /** A never-queue class: refused with limit 0 unless the entry's lane is dispatchable now. */
    static QueueRejection checkNeverQueue(ClassQueue cq, QueueEntry entry, DispatchGate gate) {
        PolicyClassSpec spec = cq.spec;
        boolean free = entry.lane() == null ? gate.sharedDispatchable(spec)
            : gate.workerDispatchable(spec, entry.lane());
        return free ? null : new QueueRejection(spec.name(), zeroLimitKind(spec), cq.size, 0);
    }

    private static QueueRejection reached(PolicyClassSpec spec, OptionalLong perWorker,
                                          QueueRejection.LimitKind kind, long current, int workerCount) {
        if (perWorker.isEmpty()) {
            return null;
        }
        long limit = DeficitRoundRobin.saturatingMultiply(perWorker.getAsLong(), workerCount);
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
}
