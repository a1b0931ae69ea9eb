package dev.sluice.core.queue;

import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.CacheBucket;
import dev.sluice.core.config.PolicyClassSpec;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.QueuePolicy;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;

/** Shared fixtures for the policy-queue tests: named entries, a fake gate, class and profile builders. */
final class QueueFixtures {
    static final long MS = 1_000_000L;
    static final long SECOND = 1_000_000_000L;

    private QueueFixtures() {
    }

    /** A queued request that carries a name, as Dynamo's tests use string payloads. */
    static final class Req extends QueueEntry {
        final String name;

        Req(String name) {
            this.name = name;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** Builds a request's queue snapshot; defaults: raw 1, cached 0, cost 1, no deadline, no priorities, shared. */
    static final class ReqBuilder {
        private final String name;
        private final int classIndex;
        private long raw = 1;
        private long cached;
        private long cost = -1;
        private long dueAt = ClassifyRequest.NO_DEADLINE;
        private int strict;
        private double jump;
        private long enqueuedAt;
        private WorkerWithDpRank lane;
        private String tenant;

        ReqBuilder(String name, int classIndex) {
            this.name = name;
            this.classIndex = classIndex;
        }

        ReqBuilder tokens(long rawTokens, long cachedTokens) {
            this.raw = rawTokens;
            this.cached = cachedTokens;
            return this;
        }

        ReqBuilder cost(long costTokens) {
            this.cost = costTokens;
            return this;
        }

        ReqBuilder due(long dueAtNs) {
            this.dueAt = dueAtNs;
            return this;
        }

        ReqBuilder strict(int strictPriority) {
            this.strict = strictPriority;
            return this;
        }

        ReqBuilder jump(double priorityJump) {
            this.jump = priorityJump;
            return this;
        }

        ReqBuilder at(long enqueuedAtNs) {
            this.enqueuedAt = enqueuedAtNs;
            return this;
        }

        ReqBuilder tenant(String name) {
            this.tenant = name;
            return this;
        }

        ReqBuilder pinned(long workerId) {
            this.lane = WorkerWithDpRank.of(workerId);
            return this;
        }

        Req build() {
            Req r = new Req(name);
            long c = cost >= 0 ? cost : Math.max(1, raw - Math.min(raw, cached));
            r.setQueueSnapshot(classIndex, raw, cached, c, dueAt, strict, jump, enqueuedAt, lane);
            r.setQueueTenant(tenant);
            return r;
        }
    }

    static ReqBuilder req(String name, int classIndex) {
        return new ReqBuilder(name, classIndex);
    }

    /**
     * Workers with busy flags and classes that can be blocked whole. The shared lane is dispatchable unless every
     * registered worker is busy (or none is registered); an exact lane unless its worker is busy or unregistered.
     */
    static final class FakeGate implements DispatchGate {
        final List<WorkerWithDpRank> workers = new ArrayList<>();
        final Set<WorkerWithDpRank> busy = new HashSet<>();
        final Set<String> blockedClasses = new HashSet<>();
        int sharedCalls;
        int workerCalls;

        FakeGate workers(int count) {
            for (int i = 0; i < count; i++) {
                workers.add(WorkerWithDpRank.of(i));
            }
            return this;
        }

        @Override
        public boolean sharedDispatchable(PolicyClassSpec spec) {
            sharedCalls++;
            if (blockedClasses.contains(spec.name())) {
                return false;
            }
            for (WorkerWithDpRank w : workers) {
                if (!busy.contains(w)) {
                    return true;
                }
            }
            return workers.isEmpty();
        }

        @Override
        public boolean workerDispatchable(PolicyClassSpec spec, WorkerWithDpRank worker) {
            workerCalls++;
            return !blockedClasses.contains(spec.name()) && workers.contains(worker) && !busy.contains(worker);
        }
    }

    /** A gate that answers every lane with one value. */
    static DispatchGate always(boolean dispatchable) {
        return new DispatchGate() {
            @Override
            public boolean sharedDispatchable(PolicyClassSpec spec) {
                return dispatchable;
            }

            @Override
            public boolean workerDispatchable(PolicyClassSpec spec, WorkerWithDpRank worker) {
                return dispatchable;
            }
        };
    }

    /** A queueing class (threshold frac 0) with the given policy, quantum and optional per-worker limits. */
    static PolicyClassSpec cls(String name, QueuePolicy policy, long quantum) {
        return limited(name, policy, quantum, null, null, null);
    }

    static PolicyClassSpec limited(String name, QueuePolicy policy, long quantum, Long requests, Long raw,
                                   Long cached) {
        return new PolicyClassSpec(name, name + "-family", "all", policy, quantum, OptionalLong.empty(),
            OptionalDouble.of(0.0), opt(requests), opt(raw), opt(cached));
    }

    /** A profile whose classes are one family each over a single bucket; ring order as given. */
    static PolicyProfile profile(PolicyClassSpec... classes) {
        return PolicyProfile.of(classes[0].policyFamily(), List.of(new CacheBucket(0, "all")), List.of(classes));
    }

    static PolicyProfile fcfsClasses(long... quanta) {
        PolicyClassSpec[] specs = new PolicyClassSpec[quanta.length];
        for (int i = 0; i < quanta.length; i++) {
            specs[i] = cls("c" + i, QueuePolicy.FCFS, quanta[i]);
        }
        return profile(specs);
    }

    static final ExpiredSink IGNORE_EXPIRED = entry -> {
    };

    /** Polls with the gate at time 0, expecting no expiry. */
    static String poll(PolicyQueues q, DispatchGate gate) {
        QueueEntry e = q.pollDispatchable(gate, 0, IGNORE_EXPIRED);
        return e == null ? null : ((Req) e).name;
    }

    private static OptionalLong opt(Long value) {
        return value == null ? OptionalLong.empty() : OptionalLong.of(value);
    }
}
