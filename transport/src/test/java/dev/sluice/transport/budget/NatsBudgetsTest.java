package dev.sluice.transport.budget;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.BudgetGrant;
import dev.sluice.core.api.RequestClassifierParameters;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.testing.RecordingListener;
import dev.sluice.core.testing.SteppedRouter;
import dev.sluice.plugins.ratelimit.TokenRateLimitProvider;
import dev.sluice.transport.testing.Await;
import dev.sluice.transport.testing.NatsServer;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.concurrent.SystemEpochNanoClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Cluster-scoped budgets on a real nats-server: stores racing on one key get no more than the bucket holds,
 * three replicas' routers share one tenant budget within the documented bound, and with NATS down each follows its
 * fail policy, then comes back once NATS does.
 */
class NatsBudgetsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final double WINDOW_NS = 60e9;

    private NatsServer server;
    private final List<AutoCloseable> opened = new ArrayList<>();

    @BeforeEach
    void startNats() throws Exception {
        server = NatsServer.start();
    }

    @AfterEach
    void stop() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
        server.close();
    }

    private NatsBudgets store() throws Exception {
        Connection connection = Nats.connect(new Options.Builder().server(server.url()).maxReconnects(-1)
            .reconnectWait(Duration.ofMillis(50)).connectionTimeout(Duration.ofSeconds(5)).build());
        opened.add(connection::close);
        NatsBudgets store = new NatsBudgets(connection, Duration.ofMillis(500), SystemEpochNanoClock.INSTANCE);
        opened.add(store);
        return store;
    }

    private SteppedRouter replica(NatsBudgets store, Map<String, ?> cluster) throws Exception {
        Map<String, Object> parameters = Map.of("requests_per_minute", 60, "scope", "cluster", "cluster", cluster);
        RouterContext context = new RouterContext().sharedBudgets(store).classifierFactory(new TokenRateLimitProvider()
            .provide(new RequestClassifierParameters(JSON.valueToTree(parameters))));
        SteppedRouter router = new SteppedRouter(null, context).worker(1, 1 << 20);
        opened.add(router);
        return router;
    }

    private int ids;

    /** Submits one request of {@code tenant} and waits for its outcome; the dispatched ones complete at once. */
    private RecordingListener.Outcome send(SteppedRouter replica, String tenant) {
        long id = replica.submit(AdmissionRequest.builder("r" + ids++).inputTokens(1).tenant(tenant).build());
        replica.stepUntil(() -> replica.listener.has(id));
        RecordingListener.Outcome outcome = replica.listener.outcome(id);
        if (outcome.dispatched()) {
            replica.router.completed(id);
            replica.step();
        }
        return outcome;
    }

    @Test
    void shouldGrantNoMoreThanTheBucketHoldsWhenThreeStoresRaceOnOneKey() throws Exception {
        List<NatsBudgets> stores = List.of(store(), store(), store());
        long limit = 600;
        AtomicLong granted = new AtomicLong();
        long start = System.nanoTime();
        List<CompletableFuture<Void>> racers = new ArrayList<>();
        for (NatsBudgets store : stores) {
            racers.add(CompletableFuture.runAsync(() -> {
                BudgetGrant grant;
                while (!(grant = store.claim("requests/m/acme", limit, 1, 5).join()).denied()) {
                    granted.addAndGet(grant.units());
                }
            }));
        }
        CompletableFuture.allOf(racers.toArray(CompletableFuture[]::new)).join();
        long refilled = (long) Math.ceil(limit * (System.nanoTime() - start) / WINDOW_NS);
        assertTrue(granted.get() >= limit, "the racers emptied the bucket: " + granted);
        assertTrue(granted.get() <= limit + refilled, granted + " granted, at most " + limit + " + " + refilled
            + " refilled while they raced");
        long writes = stores.stream().mapToLong(NatsBudgets::writes).sum();
        assertTrue(writes <= (limit + refilled), "one write per claim of up to 5, not per unit: " + writes);
    }

    @Test
    void shouldFailClaimsWhileNatsIsDownAtStartAndBindTheBucketOnceItIsUp() throws Exception {
        NatsBudgets store = store();
        server.stop();
        Await.until("the client sees NATS gone", () -> store.claim("requests/m/t", 60, 1, 1)
            .handle((grant, failure) -> failure != null).join());
        server.restart();
        Await.until("a claim binds the bucket and is granted", () -> store.claim("requests/m/t", 60, 1, 1)
            .handle((grant, failure) -> failure == null && grant.units() == 1).join());
        assertEquals(1, store.writes());
    }

    @Test
    void shouldHoldThreeReplicasToOneTenantBudgetWithinReplicasTimesChunk() throws Exception {
        Map<String, Object> cluster = Map.of("replicas", 3, "chunk_requests", 5);
        List<SteppedRouter> replicas = List.of(replica(store(), cluster), replica(store(), cluster),
            replica(store(), cluster));
        long start = System.nanoTime();
        int admitted = 0;
        int limited = 0;
        for (int i = 0; i < 180; i++) {
            RecordingListener.Outcome outcome = send(replicas.get(i % 3), "acme");
            if (outcome.dispatched()) {
                admitted++;
            } else {
                assertEquals(429, outcome.error().httpStatus(529), outcome.error().toString());
                limited++;
            }
        }
        long refilled = (long) Math.ceil(60 * (System.nanoTime() - start) / WINDOW_NS);
        assertTrue(admitted >= 60, "together the replicas used the tenant's budget: " + admitted);
        assertTrue(admitted <= 60 + 3 * 5 + refilled, admitted + " admitted; the bound is 60 + 3 x 5 + "
            + refilled + " refilled (per-replica buckets would have let 180 through)");
        assertEquals(180, admitted + limited);
    }

    @Test
    void shouldFollowTheFailPolicyWhileNatsIsDownAndComeBackWithIt() throws Exception {
        NatsBudgets openStore = store();
        SteppedRouter open = replica(openStore, Map.of("replicas", 3, "fail_policy", "open", "claim_timeout_ms",
            300, "retry_ms", 1000));
        SteppedRouter closed = replica(store(), Map.of("replicas", 3, "fail_policy", "closed", "claim_timeout_ms",
            300, "retry_ms", 1000));
        assertTrue(send(open, "warm").dispatched());
        assertTrue(send(closed, "warm").dispatched());

        server.stop();
        int admitted = 0;
        for (int i = 0; i < 30; i++) {
            RecordingListener.Outcome outcome = send(open, "acme");
            admitted += outcome.dispatched() ? 1 : 0;
        }
        assertEquals(20, admitted, "fail open: this replica's share, 60 / 3 per minute");
        AdmissionError refused = send(closed, "acme").error();
        assertEquals(503, refused.httpStatus(529), refused.toString());
        assertEquals("rate_limit_store_unavailable", refused.reason());
        assertEquals(503, send(closed, "other").error().httpStatus(529), "every tenant, while NATS is down");

        server.restart();
        Await.until("the fail-closed replica admits from NATS again", () -> {
            closed.advance(Duration.ofSeconds(1));
            return send(closed, "acme").dispatched();
        });
        long writes = openStore.writes();
        Await.until("the fail-open replica claims from NATS again", () -> {
            open.advance(Duration.ofSeconds(1));
            send(open, "fresh");
            return openStore.writes() > writes;
        });
    }
}
