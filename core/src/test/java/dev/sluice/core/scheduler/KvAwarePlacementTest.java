package dev.sluice.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.Classification;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.ConfigException;
import dev.sluice.core.config.PolicyClassSpec;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.host.RequestView;
import dev.sluice.core.host.SchedulerObserver;
import dev.sluice.core.kv.BlockHasher;
import dev.sluice.core.kv.KvEvent;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.testing.RecordingClassifier;
import dev.sluice.core.testing.SteppedRouter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Placement and bucketing follow the workers' caches as their KV events report them. */
class KvAwarePlacementTest {
    private static final int BLOCK = 16;
    private static final BlockHasher HASHER = new BlockHasher(BLOCK);

    private static int[] tokens(int from, int count) {
        return IntStream.range(from, from + count).toArray();
    }

    /** Worker {@code worker} reports that it stores the complete blocks of {@code prompt}. */
    private static void stores(SteppedRouter r, long worker, int[] prompt, int blocks) {
        long[] local = Arrays.copyOf(HASHER.localHashes(prompt), blocks);
        long[] sequence = BlockHasher.sequenceHashes(local);
        r.router.kvEvent(new KvEvent.Stored(WorkerWithDpRank.of(worker), 0, false, KvEvent.NO_PARENT, sequence,
            local));
        r.step();
    }

    private static AdmissionRequest prompt(String id, int[] tokens, String policyClass) {
        return AdmissionRequest.builder(id).promptTokens(tokens, HASHER).policyClass(policyClass).build();
    }

    @Test
    void shouldPlaceARequestWhereItsPrefixIsCached() {
        try (SteppedRouter r = new SteppedRouter(null).worker(1, 8192).worker(2, 8192).worker(3, 8192)) {
            int[] system = tokens(0, 256);
            stores(r, 2, system, 16);
            long id = r.submit(prompt("chat", tokens(0, 300), null));
            assertEquals(WorkerWithDpRank.of(2), r.listener.outcome(id).worker());
        }
    }

    @Test
    void shouldShowTheClassifierTheBestCachedEstimateInTheDefaultCost() {
        AtomicLong cost = new AtomicLong();
        RecordingClassifier classifier = new RecordingClassifier().deciding(req -> {
            cost.set(req.schedulingCostTokens());
            return Classification.admit(req);
        });
        try (SteppedRouter r = new SteppedRouter(classifier).worker(0, 8192)) {
            stores(r, 0, tokens(0, 128), 2);
            r.submit(prompt("request-1", tokens(0, 128), "latency"));
            assertEquals(128 - 32, cost.get());
        }
    }

    @Test
    void shouldChooseTheBucketFromTheCacheAtEnqueue() throws ConfigException {
        PolicyProfile profile = RouterPolicyLoader.parse("""
            default_policy_family: standard
            uncached_isl_buckets: [{min_tokens: 0, bucket: cached}, {min_tokens: 32, bucket: uncached}]
            policy_classes:
              - {name: cached, policy_family: standard, cache_bucket: cached, quantum: 1}
              - {name: uncached, policy_family: standard, cache_bucket: uncached, quantum: 1}
              - {name: latency_cached, policy_family: latency, cache_bucket: cached, quantum: 1}
              - {name: latency_uncached, policy_family: latency, cache_bucket: uncached, quantum: 1}
              - {name: custom_priority, quantum: 1}
            """, "<inline>").root().orElseThrow();
        List<String> classes = new ArrayList<>();
        SchedulerObserver classOf = new SchedulerObserver() {
            @Override
            public void onEnqueued(long nowNs, RequestView request, PolicyClassSpec policyClass) {
                classes.add(request.requestId() + "=" + policyClass.name() + "/" + request.cachedTokens());
            }
        };
        try (SteppedRouter r = new SteppedRouter(null, new RouterContext().profile(profile).observer(classOf))
            .worker(0, 8192)) {
            stores(r, 0, tokens(0, 64), 4);
            r.submit(prompt("a", tokens(0, 64), "latency"));
            r.submit(prompt("b", tokens(1000, 64), "latency"));
            r.submit(prompt("c", tokens(0, 64), "unknown"));
            r.submit(prompt("d", tokens(1000, 64), "latency_cached"));
            r.submit(prompt("e", tokens(1000, 64), "custom_priority"));
            r.submit(prompt("f", tokens(0, 48), null));
        }
        assertEquals(List.of("a=latency_cached/64", "b=latency_uncached/0", "c=cached/64", "d=uncached/0",
            "e=custom_priority/0", "f=cached/48"), classes);
    }

    @Test
    void shouldForgetTheCacheOfAWorkerThatLeft() {
        try (SteppedRouter r = new SteppedRouter(null).worker(1, 8192).worker(2, 8192)) {
            stores(r, 2, tokens(0, 256), 16);
            r.router.workerLeft(WorkerWithDpRank.of(2));
            r.step();
            r.worker(2, 8192);
            long first = r.submit(prompt("x", tokens(0, 256), null));
            assertEquals(WorkerWithDpRank.of(1), r.listener.outcome(first).worker(), "no cache left: lowest cost, id");
        }
    }

    @Test
    void shouldFollowEachWorkersCacheAndLoadAfterTheFleetChanged() {
        try (SteppedRouter r = new SteppedRouter(null).worker(2, 8192).worker(3, 8192)) {
            stores(r, 3, tokens(0, 256), 16);
            // Worker 1 joins in front: every worker's place in the table moves.
            r.worker(1, 8192);
            long cached = r.submit(prompt("cached", tokens(0, 300), null));
            assertEquals(WorkerWithDpRank.of(3), r.listener.outcome(cached).worker(), "the cache moved with worker 3");

            long first = r.submit(prompt("first", tokens(5000, 300), null));
            assertEquals(WorkerWithDpRank.of(1), r.listener.outcome(first).worker(), "equal costs: lowest id");
            // Worker 1 leaves with its booking; worker 4 takes its load's place and must not inherit the booking.
            r.router.workerLeft(WorkerWithDpRank.of(1));
            r.step();
            r.worker(4, 8192);
            long second = r.submit(prompt("second", tokens(6000, 300), null));
            assertEquals(WorkerWithDpRank.of(2), r.listener.outcome(second).worker(), "2 and 4 idle: lowest id");
            long third = r.submit(prompt("third", tokens(7000, 300), null));
            assertEquals(WorkerWithDpRank.of(4), r.listener.outcome(third).worker(), "4 starts with no load");
        }
    }

    @Test
    void shouldFailOneRequestWhenTheSelectorThrows() {
        RouterContext context = new RouterContext().workerSelector(c -> inputs -> {
            if (inputs.inputTokens() == 13) {
                throw new IllegalStateException("selector bug");
            }
            return 0;
        });
        try (SteppedRouter r = new SteppedRouter(null, context).worker(1, 8192)) {
            long bad = r.submit("bad", 13);
            long good = r.submit("good", 14);
            assertEquals(500, r.listener.outcome(bad).error().httpStatus(529));
            assertEquals("worker_selection_failed", r.listener.outcome(bad).error().reason());
            assertTrue(r.listener.outcome(good).dispatched());
        }
    }
}
