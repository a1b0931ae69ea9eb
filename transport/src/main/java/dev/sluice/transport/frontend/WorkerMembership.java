package dev.sluice.transport.frontend;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.WorkerLoad;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.transport.engine.Engine;
import dev.sluice.transport.engine.EngineRuntimeConfig;
import dev.sluice.transport.engine.telemetry.TelemetrySink;
import dev.sluice.transport.metrics.WorkerHealthMetrics;
import java.util.Arrays;
import java.util.OptionalLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The engines' workers in the router: a worker joins with its engine's capacity when it is {@link #add added} (at
 * start-up, or when the engines file names a new engine); one that turns unhealthy leaves (all its ranks), and
 * rejoins with the same capacity when it recovers; one that is {@link #remove removed} leaves for good. Transitions
 * are counted in the metrics. A capacity an engine publishes ({@link #onCapacity}, from its metrics scraper)
 * replaces the configured one, at once if the worker is in the router, else when it rejoins: a scraper never brings
 * back a worker that left. Engine load reports go to the router as they are (it drops those of a worker that left).
 *
 * <p>Thread-safe: each worker's joins, leaves and capacity changes happen under its own lock (which, unlike a
 * monitor, does not pin a virtual thread), so they reach the router in the order they were decided.
 */
final class WorkerMembership implements WorkerHealth.Listener, TelemetrySink {
    /** One worker; the fields are guarded by {@link #lock}. */
    private static final class Member {
        final ReentrantLock lock = new ReentrantLock();
        final Engine engine;
        /** Each rank's capacity as its engine published it, -1 until then. */
        final long[] published;
        /** Whether the worker is in the router. */
        boolean joined;
        /** Whether it was removed: it never joins again. */
        boolean removed;

        Member(Engine engine) {
            this.engine = engine;
            this.published = new long[engine.runtimeConfig().dataParallelSize()];
            Arrays.fill(published, -1);
        }
    }

    private final ModelRouter router;
    private final WorkerHealthMetrics metrics;
    /** By worker id, grown as workers are added. */
    private volatile Member[] members = new Member[0];

    WorkerMembership(ModelRouter router, WorkerHealthMetrics metrics) {
        this.router = router;
        this.metrics = metrics;
    }

    /** Adds worker {@code worker}, whose engine is {@code engine}, and registers it in the router. */
    void add(int worker, Engine engine) {
        Member member = new Member(engine);
        synchronized (this) {
            Member[] grown = Arrays.copyOf(members, Math.max(members.length, worker + 1));
            if (grown[worker] != null) {
                throw new IllegalArgumentException("worker " + worker + " was added already");
            }
            grown[worker] = member;
            members = grown;
        }
        member.lock.lock();
        try {
            join(worker, member);
        } finally {
            member.lock.unlock();
        }
        metrics.tracked(worker);
    }

    /** Takes {@code worker} out of the router for good: health and its scraper never bring it back. */
    void remove(int worker) {
        Member member = members[worker];
        boolean wasUnhealthy;
        member.lock.lock();
        try {
            if (member.removed) {
                return;
            }
            wasUnhealthy = !member.joined;
            member.removed = true;
            leave(worker, member);
        } finally {
            member.lock.unlock();
        }
        metrics.forgotten(worker, wasUnhealthy);
    }

    @Override
    public void onUnhealthy(int worker) {
        Member member = members[worker];
        member.lock.lock();
        try {
            if (member.removed) {
                return;
            }
            leave(worker, member);
        } finally {
            member.lock.unlock();
        }
        metrics.turnedUnhealthy(worker);
    }

    @Override
    public void onRecovered(int worker) {
        Member member = members[worker];
        member.lock.lock();
        try {
            if (member.removed) {
                return;
            }
            join(worker, member);
        } finally {
            member.lock.unlock();
        }
        metrics.recovered(worker);
    }

    @Override
    public void onLoad(WorkerLoad load) {
        router.workerLoad(load);
    }

    /** The rank's engine published its KV capacity: the rank books against it from now on. */
    @Override
    public void onCapacity(WorkerWithDpRank rank, long totalKvBlocks) {
        int worker = Math.toIntExact(rank.workerId());
        Member member = members[worker];
        member.lock.lock();
        try {
            member.published[rank.dpRank()] = totalKvBlocks;
            if (member.joined) {
                router.workerJoined(rank, member.engine.runtimeConfig().maxNumBatchedTokens(),
                    OptionalLong.of(totalKvBlocks));
            }
        } finally {
            member.lock.unlock();
        }
    }

    /** Under the worker's lock. */
    private void join(int worker, Member member) {
        EngineRuntimeConfig config = member.engine.runtimeConfig();
        for (int rank = 0; rank < config.dataParallelSize(); rank++) {
            long blocks = member.published[rank] > 0 ? member.published[rank] : config.totalKvBlocks();
            router.workerJoined(new WorkerWithDpRank(worker, rank), config.maxNumBatchedTokens(),
                OptionalLong.of(blocks));
        }
        member.joined = true;
    }

    /** Under the worker's lock. */
    private void leave(int worker, Member member) {
        if (!member.joined) {
            return;
        }
        member.joined = false;
        for (int rank = 0; rank < member.engine.runtimeConfig().dataParallelSize(); rank++) {
            router.workerLeft(new WorkerWithDpRank(worker, rank));
        }
    }
}
