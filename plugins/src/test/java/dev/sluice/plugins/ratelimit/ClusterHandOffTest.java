package dev.sluice.plugins.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.api.BudgetGrant;
import dev.sluice.core.api.InMemoryBudgets;
import dev.sluice.core.api.RequestClassifierParameters;
import dev.sluice.core.api.SharedBudgets;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.testing.SteppedRouter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/**
 * The cross-thread hand-off of {@code scope: cluster}: claims answered on other threads while the scheduler thread
 * keeps classifying. Every request ends exactly once, and the tenant gets exactly the shared bucket (the store's
 * clock stands still, so nothing refills and no lease predates the run).
 */
class ClusterHandOffTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The in-memory store, each answer given on a pool thread. */
    private record PooledBudgets(SharedBudgets store, ExecutorService pool) implements SharedBudgets {
        @Override
        public CompletableFuture<BudgetGrant> claim(String key, long limit, long minUnits, long maxUnits) {
            return CompletableFuture.supplyAsync(() -> store.claim(key, limit, minUnits, maxUnits).join(), pool);
        }

        @Override
        public CompletableFuture<Void> refund(String key, long limit, long units) {
            return CompletableFuture.runAsync(() -> store.refund(key, limit, units).join(), pool);
        }
    }

    @Test
    void shouldEndEveryRequestOnceAndAdmitExactlyTheSharedBucketWhenClaimsAnswerOnOtherThreads() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            InMemoryBudgets shared = new InMemoryBudgets(() -> 1_000_000_000_000L);
            Map<String, Object> parameters = Map.of("requests_per_minute", 500, "scope", "cluster",
                "cluster", Map.of("replicas", 2, "chunk_requests", 3, "claim_timeout_ms", 60_000));
            List<SteppedRouter> replicas = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                replicas.add(new SteppedRouter(null, new RouterContext().sharedBudgets(new PooledBudgets(shared, pool))
                    .classifierFactory(new TokenRateLimitProvider().provide(
                        new RequestClassifierParameters(JSON.valueToTree(parameters))))).worker(1, 1 << 30));
            }
            List<List<Long>> ids = List.of(new ArrayList<>(), new ArrayList<>());
            for (int i = 0; i < 1200; i++) {
                SteppedRouter r = replicas.get(i % 2);
                ids.get(i % 2).add(r.router.submit(AdmissionRequest.builder("r" + i).inputTokens(1)
                    .tenant(i % 3 == 0 ? "other" : "acme").build(), r.listener));
                r.router.doWork();
            }
            int admitted = 0;
            for (int i = 0; i < 2; i++) {
                SteppedRouter r = replicas.get(i);
                List<Long> mine = ids.get(i);
                r.stepUntil(() -> mine.stream().allMatch(r.listener::has));
                assertTrue(r.listener.violations().isEmpty(), r.listener.violations().toString());
                assertEquals(600, r.listener.count());
                for (long id : mine) {
                    if (r.listener.outcome(id).dispatched()) {
                        admitted++;
                    } else {
                        assertEquals(429, r.listener.outcome(id).error().httpStatus(529));
                    }
                }
                r.close();
            }
            assertEquals(500 + 400, admitted, "acme's 800 requests get its bucket of 500 (the leases spent to the "
                + "last unit by the requests after it ran dry), other's 400 all fit");
        } finally {
            pool.shutdownNow();
        }
    }
}
