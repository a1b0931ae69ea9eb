package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyEvent;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.config.ConfigException;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.spi.RequestClassifier;
import dev.sluice.transport.engine.sim.SimEngineContext;
import io.helidon.http.HeaderNames;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * Tenant fairness through real HTTP: one simulated worker that takes one prefill at a time, a heavy tenant's backlog
 * of six completions in one class, then a light tenant's two (tenants from the trusted {@code x-tenant} header).
 * Without fairness the light tenant waits behind the whole backlog; with {@code tenant_fairness: vtc} it is served
 * within it. The order of dispatch is what the classifier hears ({@code Sent}); {@code /metrics} shows the class's
 * active tenants and top shares, never a tenant's name.
 */
class TenantFairnessSystemTest {
    private static final String MODEL = "fair-test";
    private static final String POLICY = """
        default_policy_family: shared
        uncached_isl_buckets:
          - min_tokens: 0
            bucket: all
        policy_classes:
          - name: shared_all
            policy_family: shared
            cache_bucket: all
            quantum: 100000
            prefill_busy_threshold: 0
            tenant_fairness: %s
        """;

    /** Ten times slower than the mocker's model, so the light tenant arrives while the heavy backlog waits. */
    private static final SimEngineContext SLOW_ENGINE = new SimEngineContext().numGpuBlocks(4096).blockSize(16)
        .speedupRatio(0.1);

    /** Admits everything; remembers each request's tenant and the order of dispatch. */
    static final class OrderRecorder implements RequestClassifier {
        final Map<String, String> tenantOf = new ConcurrentHashMap<>();
        final List<String> sent = new CopyOnWriteArrayList<>();
        final AtomicInteger classified = new AtomicInteger();

        @Override
        public Classification classify(ClassifyRequest request) {
            tenantOf.put(request.requestId(), request.tenant());
            classified.incrementAndGet();
            return Classification.admit(request);
        }

        @Override
        public void onEvent(ClassifyEvent event) {
            if (event instanceof ClassifyEvent.Sent s) {
                sent.add(tenantOf.get(s.requestId()));
            }
        }
    }

    @Test
    void shouldServeALightTenantOnlyAfterTheHeavyBacklogWithoutFairness() throws Exception {
        List<String> order = dispatchOrder("none");
        assertEquals(List.of("heavy", "heavy", "heavy", "heavy", "heavy", "heavy", "light", "light"), order);
    }

    @Test
    void shouldServeALightTenantWithinTheHeavyBacklogWithVtc() throws Exception {
        List<String> order = dispatchOrder("vtc");
        assertEquals(8, order.size(), order::toString);
        assertEquals(List.of("heavy", "heavy"), order.subList(6, 8), "the heavy tenant's backlog ends the run: "
            + order);
        assertTrue(order.indexOf("light") < 4, order::toString);
        assertTrue(metrics.contains("sluice_queue_tenant_top_share{model=\"" + MODEL
            + "\",policy_class=\"shared_all\",rank=\"1\"} 0."), metrics);
        assertTrue(metrics.contains("sluice_queue_tenants_active{model=\"" + MODEL
            + "\",policy_class=\"shared_all\"}"), metrics);
        assertFalse(metrics.contains("heavy") || metrics.contains("light"), "no label names a tenant");
    }

    private String metrics = "";

    private List<String> dispatchOrder(String fairness) throws Exception {
        OrderRecorder recorder = new OrderRecorder();
        RouterContext router = new RouterContext().profile(profile(fairness)).classifierFactory(c -> recorder);
        try (Frontend frontend = Frontend.start(new FrontendSettings("127.0.0.1", 0, MODEL, 64 * 1024, 16, 529,
            HeaderNames.create("x-tenant"), Duration.ofSeconds(5), router,
            new EngineSetup.Simulated(SLOW_ENGINE, 1), null))) {
            HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            String url = "http://127.0.0.1:" + frontend.port() + "/v1/completions";
            List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                answers.add(post(client, url, "heavy", i));
            }
            await(() -> recorder.classified.get() == 6);
            for (int i = 0; i < 2; i++) {
                answers.add(post(client, url, "light", i));
            }
            for (CompletableFuture<HttpResponse<String>> answer : answers) {
                HttpResponse<String> response = answer.get();
                assertEquals(200, response.statusCode(), response.body());
            }
            if (fairness.equals("vtc")) {
                // Reported once a second of the router's clock: wait for the first report.
                HttpRequest scrape = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + frontend.port()
                    + "/metrics")).build();
                await(() -> {
                    metrics = client.sendAsync(scrape, HttpResponse.BodyHandlers.ofString()).join().body();
                    return metrics.contains("sluice_queue_tenant_top_share{");
                });
            }
            return List.copyOf(recorder.sent);
        }
    }

    private static CompletableFuture<HttpResponse<String>> post(HttpClient client, String url, String tenant,
                                                               int n) {
        String prompt = ("the " + tenant + " tenant asks question " + n + " about the river and the gate ").repeat(8);
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60))
            .header("content-type", "application/json").header("x-tenant", tenant)
            .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + MODEL + "\",\"prompt\":\"" + prompt
                + "\",\"max_tokens\":32}")).build();
        return client.sendAsync(request, HttpResponse.BodyHandlers.ofString());
    }

    private static PolicyProfile profile(String fairness) throws ConfigException {
        return RouterPolicyLoader.parse(POLICY.formatted(fairness), "fair.yaml")
            .profileFor(MODEL, OptionalDouble.empty(), QueuePolicy.FCFS);
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long giveUp = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > giveUp) {
                throw new AssertionError("condition not reached in 30 s");
            }
            Thread.sleep(5);
        }
    }
}
