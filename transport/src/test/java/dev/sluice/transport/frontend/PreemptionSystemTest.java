package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyEvent;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.audit.JournalRun;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.journal.JournalContext;
import dev.sluice.core.replay.DecisionComparison;
import dev.sluice.core.replay.ReplayVerifier;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.spi.RequestClassifier;
import dev.sluice.transport.engine.EngineRuntimeConfig;
import dev.sluice.transport.engine.http.HttpEngineSettings;
import dev.sluice.transport.testing.Await;
import dev.sluice.transport.testing.FaultyEngine;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Preemption over HTTP: a frontend on one remote engine (busy at any prefill), a bulk request held by the engine
 * before its first token, then an interactive one. The bulk client gets 503 {@code preempted} with a
 * {@code Retry-After}, its classifier exactly one Aborted with that cause, the engine request is cancelled, the
 * interactive request completes on the freed engine, {@code /metrics} counts the preemption, and the journaled run
 * replays ({@code replay --verify}'s check) with the preemption reproduced.
 */
class PreemptionSystemTest {
    private static final String MODEL = "m";
    private static final String POLICY = """
        default_policy_family: bulk
        uncached_isl_buckets: [{min_tokens: 0, bucket: all}]
        policy_classes:
          - {name: interactive, policy_family: interactive, cache_bucket: all, quantum: 1,
             prefill_busy_threshold: 0, preemption_priority: 1}
          - {name: bulk, policy_family: bulk, cache_bucket: all, quantum: 1, prefill_busy_threshold: 0,
             preemptible: true}
        """;

    /** Each Aborted's cause reason, kept at delivery (an event is valid only during its onEvent call). */
    private final List<String> aborts = new CopyOnWriteArrayList<>();
    @TempDir
    Path journal;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @Test
    void shouldPreemptTheHeldBulkRequestForTheInteractiveOne() throws Exception {
        RequestClassifier recording = new RequestClassifier() {
            @Override
            public Classification classify(ClassifyRequest request) {
                return Classification.admit(request);
            }

            @Override
            public void onEvent(ClassifyEvent event) {
                if (event instanceof ClassifyEvent.Aborted aborted) {
                    aborts.add(aborted.cause().map(c -> c instanceof AdmissionError e ? e.reason() : c.toString())
                        .orElse("(none)"));
                }
            }
        };
        RouterContext context = new RouterContext().classifierFactory(c -> recording)
            .profile(RouterPolicyLoader.parse(POLICY, "policy.yaml").root().orElseThrow());
        try (FaultyEngine engine = new FaultyEngine()) {
            HttpEngineSettings settings = HttpEngineSettings.of(engine.url(), MODEL, Duration.ofSeconds(1),
                Duration.ofSeconds(30), new EngineRuntimeConfig(16_384, 16, 8192, 256, 1));
            try (Frontend frontend = Frontend.start(new FrontendSettings("127.0.0.1", 0, MODEL, 1 << 20, 16, 529,
                null, Duration.ofSeconds(1), context,
                new EngineSetup.Remote(List.of(settings), WorkerHealthSettings.OFF), new JournalSetup(
                new JournalContext(journal), "policy.yaml", POLICY, "default", OptionalDouble.empty(),
                QueuePolicy.FCFS)))) {
                String base = "http://127.0.0.1:" + frontend.port();
                CompletableFuture<HttpResponse<String>> held = http.sendAsync(completion(base, "bulk", "hang"),
                    HttpResponse.BodyHandlers.ofString());
                Await.until("the bulk request sent to the engine", () -> engine.completionsReceived() == 1);

                HttpResponse<String> high = http.send(completion(base, "interactive", "fine"),
                    HttpResponse.BodyHandlers.ofString());
                assertEquals(200, high.statusCode(), high.body());
                assertTrue(high.body().contains("\"finish_reason\""), high.body());

                HttpResponse<String> low = held.get();
                assertEquals(503, low.statusCode(), low.body());
                assertTrue(low.body().contains("\"code\":\"preempted\""), low.body());
                long retryAfter = Long.parseLong(low.headers().firstValue("Retry-After").orElseThrow());
                assertTrue(retryAfter >= 1 && retryAfter <= 60, "Retry-After " + retryAfter);

                Await.until("nothing live", () -> frontend.router().stats().live() == 0);
                assertEquals(List.of("preempted"), aborts, "exactly one Aborted, with cause preempted");
                assertEquals(1, frontend.router().stats().preempted());
                assertEquals(1, frontend.router().stats().completed());
                HttpResponse<String> metrics = http.send(HttpRequest.newBuilder(URI.create(base + "/metrics"))
                    .build(), HttpResponse.BodyHandlers.ofString());
                assertTrue(metrics.body().contains("sluice_requests_preempted_total{model=\"m\"} 1"),
                    metrics.body());
            }
        }
        JournalRun run = JournalRun.read(journal, null).get(0);
        DecisionComparison.Result replay = ReplayVerifier.verify(run);
        assertEquals(List.of(), replay.differences());
        assertEquals(2, replay.dispatches());
    }

    private static HttpRequest completion(String base, String family, String word) {
        return HttpRequest.newBuilder(URI.create(base + "/v1/completions")).timeout(Duration.ofSeconds(60))
            .header("Content-Type", "application/json").header("x-dynamo-meta-policy-class", family)
            .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + MODEL + "\",\"prompt\":\"please " + word
                + "\",\"max_tokens\":4}", StandardCharsets.UTF_8)).build();
    }
}
