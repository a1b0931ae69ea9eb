package dev.sluice.perf.queue;

import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.CacheBucket;
import dev.sluice.core.config.PolicyClassSpec;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.config.TenantFairness;
import dev.sluice.core.queue.DispatchGate;
import dev.sluice.core.queue.ExpiredSink;
import dev.sluice.core.queue.PolicyQueues;
import dev.sluice.core.queue.QueueEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Steady state of the policy queues: one {@code pollDispatchable} (DRR over classes, lane heads, deadline sweep) plus
 * one {@code enqueue} of the dispatched record back into its class, over a pre-filled backlog of {@link #backlog}
 * entries. Costs vary around the quantum so DRR carries credit and fast-forwards; a quarter of the entries carry a
 * far deadline so the deadline index is exercised. {@code lanes} = 0 puts every entry in the shared lanes; otherwise
 * entries are pinned to that many exact-worker lanes, each class holding several. {@code fairness} = vtc makes
 * every class tenant-fair over 64 tenants: each poll then also ends the polled entry's service (charging 32
 * generated tokens) before it is enqueued again.
 *
 * <p>Run: {@code java -jar perf/target/benchmarks.jar PolicyQueueBench -prof gc}; 0 B/op in
 * {@code gc.alloc.rate.norm} is the target.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED"})
public class PolicyQueueBench {
    private static final long QUANTUM = 512;
    private static final int COSTS = 4096;
    private static final long HOUR_NS = 3_600_000_000_000L;
    private static final DispatchGate FREE = new DispatchGate() {
        @Override
        public boolean sharedDispatchable(PolicyClassSpec spec) {
            return true;
        }

        @Override
        public boolean workerDispatchable(PolicyClassSpec spec, WorkerWithDpRank worker) {
            return true;
        }
    };
    private static final ExpiredSink NONE = entry -> {
        throw new IllegalStateException("nothing should expire");
    };

    @Param({"1", "8", "128", "1024"})
    public int classes;

    @Param({"0", "1024"})
    public int lanes;

    @Param({"65536"})
    public int backlog;

    /** {@code tenant_fairness} of every class: {@code none}, or {@code vtc} over {@link #TENANTS} tenants. */
    @Param({"none", "vtc"})
    public String fairness;

    private static final int TENANTS = 64;
    private final String[] tenants = new String[TENANTS];

    private PolicyQueues queues;
    private WorkerWithDpRank[] workers;
    private final long[] costs = new long[COSTS];
    private int next;
    private long now;

    /** A queued request, reused: polled, re-snapshotted and enqueued again. */
    static final class Entry extends QueueEntry {
        int lane = -1;
    }

    @Setup(Level.Trial)
    public void setUp() {
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < COSTS; i++) {
            costs[i] = 1 + random.nextLong(2 * QUANTUM);
        }
        for (int t = 0; t < TENANTS; t++) {
            tenants[t] = "tenant-" + t;
        }
        workers = new WorkerWithDpRank[Math.max(1, lanes)];
        for (int i = 0; i < workers.length; i++) {
            workers[i] = WorkerWithDpRank.of(i);
        }
        queues = new PolicyQueues(profile(classes, fairness.equals("vtc") ? TenantFairness.vtc()
            : TenantFairness.NONE));
        for (int i = 0; i < backlog; i++) {
            Entry e = new Entry();
            e.lane = lanes == 0 ? -1 : (i / classes) % lanes;
            snapshot(e, i % classes);
            if (queues.enqueue(e, workers.length, FREE) != null) {
                throw new IllegalStateException("backlog rejected");
            }
        }
    }

    @Benchmark
    public QueueEntry pollThenEnqueue() {
        now += 1_000;
        Entry e = (Entry) queues.pollDispatchable(FREE, now, NONE);
        queues.serviceEnded(e, 32);
        snapshot(e, e.classIndex());
        queues.enqueue(e, workers.length, FREE);
        return e;
    }

    private void snapshot(Entry e, int classIndex) {
        int i = next++;
        long cost = costs[i & (COSTS - 1)];
        long due = (i & 3) == 0 ? now + HOUR_NS : ClassifyRequest.NO_DEADLINE;
        WorkerWithDpRank lane = e.lane < 0 ? null : workers[e.lane];
        e.setQueueSnapshot(classIndex, cost + 64, 64, cost, due, 0, (i & 7) == 0 ? 0.5 : 0.0, now, lane);
        e.setQueueTenant(tenants[(i * 7) & (TENANTS - 1)]);
    }

    private static PolicyProfile profile(int classes, TenantFairness fairness) {
        List<PolicyClassSpec> specs = new ArrayList<>(classes);
        for (int c = 0; c < classes; c++) {
            QueuePolicy policy = (c & 1) == 0 ? QueuePolicy.FCFS : QueuePolicy.WSPT;
            specs.add(new PolicyClassSpec("c" + c, "f" + c, "all", policy, QUANTUM, OptionalLong.empty(),
                OptionalDouble.of(1.0), OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(), fairness));
        }
        return PolicyProfile.of("f0", List.of(new CacheBucket(0, "all")), specs);
    }
}
