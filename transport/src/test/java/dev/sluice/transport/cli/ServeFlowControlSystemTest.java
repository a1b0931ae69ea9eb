package dev.sluice.transport.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.transport.testing.Await;
import dev.sluice.transport.testing.FaultyEngine;
import dev.sluice.transport.testing.ScrapedMetrics;
import dev.sluice.transport.testing.SluiceProcess;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The three flow-control mechanisms together through {@code sluice serve} (a process) on one remote engine over
 * HTTP (a test engine on loopback that holds a request whose prompt says {@code hang} before its first token): an
 * interactive request (a tenant-fair class) preempts the held bulk one, whose client gets 503 {@code preempted} with
 * a {@code Retry-After}; a SIGHUP reloads the policy (the interactive class renamed); after it a second held bulk
 * request is preempted by a burst of two tenants' interactive requests, which queue one behind the other (the engine
 * is busy at any prefill) and all complete; and {@code replay --verify} reproduces the journaled run: tenant-fair
 * dispatches, both preemptions and the reload. On either server ({@code --http-io threads} and {@code loops}).
 */
class ServeFlowControlSystemTest {
    private static final Pattern READY = Pattern.compile("sluice serving \\S+ on (http://\\S+)");
    private static final String MODEL = "m";
    private static final String BEFORE = """
        default_policy_family: bulk
        uncached_isl_buckets: [{min_tokens: 0, bucket: all}]
        policy_classes:
          - {name: interactive, policy_family: interactive, cache_bucket: all, quantum: 1,
             prefill_busy_threshold: 0, preemption_priority: 1, tenant_fairness: vtc}
          - {name: bulk, policy_family: bulk, cache_bucket: all, quantum: 1, prefill_busy_threshold: 0,
             preemptible: true}
        """;
    private static final String AFTER = BEFORE.replace("name: interactive,", "name: interactive-v2,");

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @TempDir
    Path dir;

    @ParameterizedTest(name = "--http-io {0}")
    @ValueSource(strings = {"threads", "loops"})
    void shouldPreemptReloadAndServeTenantsFairlyInAServeProcessAndReplayTheRun(String io) throws Exception {
        Path policy = dir.resolve("policy.yaml");
        Path journal = dir.resolve("journal");
        Files.writeString(policy, BEFORE);
        try (FaultyEngine engine = new FaultyEngine();
             SluiceProcess serve = SluiceProcess.start(READY, List.of("serve", "--http-port", "0", "--model-name",
                 MODEL, "--engine-url", engine.url(), "--engine-metrics-interval", "0", "--tenant-header",
                 "x-tenant", "--router-policy-config", policy.toString(), "--journal-dir", journal.toString(),
                 "--http-io", io))) {
            String base = serve.ready();

            CompletableFuture<HttpResponse<String>> held = send(base, "bulk", "nobody", "hang");
            Await.until("the first bulk request held by the engine", () -> engine.completionsReceived() == 1);
            HttpResponse<String> high = http.send(completion(base, "interactive", "a", "fine"),
                HttpResponse.BodyHandlers.ofString());
            assertEquals(200, high.statusCode(), high.body());
            assertEquals("interactive", high.headers().firstValue("x-sluice-policy-class").orElseThrow());
            assertPreempted(held.get());

            Files.writeString(policy, AFTER);
            serve.hangUp();
            Await.until("the reload applied", () -> metric(base, "sluice_policy_reloads_total",
                "result=\"applied\"") == 1, serve::output);

            CompletableFuture<HttpResponse<String>> heldAgain = send(base, "bulk", "nobody", "hang");
            Await.until("the second bulk request held by the engine", () -> engine.completionsReceived() == 3);
            List<CompletableFuture<HttpResponse<String>>> burst = new ArrayList<>();
            for (String tenant : List.of("heavy", "heavy", "heavy", "light", "heavy", "light")) {
                burst.add(send(base, "interactive", tenant, "fine"));
            }
            for (CompletableFuture<HttpResponse<String>> f : burst) {
                HttpResponse<String> r = f.get();
                assertEquals(200, r.statusCode(), r.body());
                assertEquals("interactive-v2", r.headers().firstValue("x-sluice-policy-class").orElseThrow());
            }
            assertPreempted(heldAgain.get());
            Await.until("the router counting two preemptions and seven completions", () ->
                metric(base, "sluice_requests_preempted_total", "model=\"m\"") >= 2
                    && metric(base, "sluice_requests_completed_total", "model=\"m\"") >= 7);
            assertEquals(2, metric(base, "sluice_requests_preempted_total", "model=\"m\""), serve.output());
            assertEquals(7, metric(base, "sluice_requests_completed_total", "model=\"m\""), serve.output());
            assertEquals(143, serve.stop(), serve.output());
        }
        StringWriter out = new StringWriter();
        CommandLine cli = SluiceMain.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(out));
        assertEquals(0, cli.execute("replay", "--verify", journal.toString()), out.toString());
        assertTrue(out.toString().contains("the order of 9 dispatches"), out.toString());
        assertTrue(out.toString().contains("decisions reproduce exactly: 0 differences"), out.toString());
    }

    private static void assertPreempted(HttpResponse<String> low) {
        assertEquals(503, low.statusCode(), low.body());
        assertTrue(low.body().contains("\"code\":\"preempted\""), low.body());
        long retryAfter = Long.parseLong(low.headers().firstValue("Retry-After").orElseThrow());
        assertTrue(retryAfter >= 1 && retryAfter <= 60, "Retry-After " + retryAfter);
    }

    private CompletableFuture<HttpResponse<String>> send(String base, String family, String tenant, String word) {
        return http.sendAsync(completion(base, family, tenant, word), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest completion(String base, String family, String tenant, String word) {
        return HttpRequest.newBuilder(URI.create(base + "/v1/completions")).timeout(Duration.ofSeconds(60))
            .header("Content-Type", "application/json").header("x-dynamo-meta-policy-class", family)
            .header("x-tenant", tenant)
            .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + MODEL + "\",\"prompt\":\"please " + word
                + "\",\"max_tokens\":4}", StandardCharsets.UTF_8)).build();
    }

    /** The value of the sample of {@code name} whose labels contain {@code label}; 0 when there is none. */
    private static long metric(String base, String name, String label) {
        try {
            return ScrapedMetrics.of(URI.create(base).getPort()).sample(name, label);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
