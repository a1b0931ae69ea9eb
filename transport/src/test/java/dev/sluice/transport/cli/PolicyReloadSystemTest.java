package dev.sluice.transport.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.transport.testing.Await;
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
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code sluice serve} (a process) reloading its router policy without a restart: after a SIGHUP, and with
 * {@code --watch-config} after an editor-style save (a new file renamed over the old), requests of the bulk family
 * are admitted under the new class; a request in flight across the reload streams on after it; an invalid file is
 * refused with its {@code file:line:col} message, counted in {@code /metrics}, and the old policy serves on; and
 * {@code replay --verify} reproduces the journaled run, reloads included.
 */
class PolicyReloadSystemTest {
    private static final Pattern READY = Pattern.compile("sluice serving \\S+ on (http://\\S+)");
    private static final String MODEL = "m";
    /** The long request's length: minutes at this speed-up, far beyond the test. */
    private static final int LONG_TOKENS = 100_000;
    private static final String BEFORE = """
        default_policy_family: standard
        uncached_isl_buckets: [{min_tokens: 0, bucket: any}]
        policy_classes:
          - {name: standard, policy_family: standard, cache_bucket: any, quantum: 100}
          - {name: bulk, policy_family: bulk, cache_bucket: any, quantum: 100}
        """;
    private static final String AFTER = BEFORE.replace("name: bulk,", "name: bulk-v2,");
    private static final String INVALID = AFTER.replaceFirst("quantum: 100", "quantum: 0");
    private static final String THIRD = BEFORE.replace("name: bulk,", "name: bulk-v3,");

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @TempDir
    Path dir;

    @Test
    void shouldReloadOnSighupAndOnAFileChangeRefuseAnInvalidFileAndReplayTheRun() throws Exception {
        Path policy = dir.resolve("policy.yaml");
        Path journal = dir.resolve("journal");
        Files.writeString(policy, BEFORE);
        try (SluiceProcess serve = SluiceProcess.start(READY, List.of("serve", "--http-port", "0", "--model-name",
            MODEL, "--sim-workers", "1", "--speedup-ratio", "0.5", "--router-policy-config", policy.toString(),
            "--watch-config", "--journal-dir", journal.toString()))) {
            String base = serve.ready();
            assertTrue(serve.output().contains("reloads on SIGHUP and when it changes"), serve.output());
            assertEquals("bulk", admittedClass(base, "bulk"));

            // A long request in flight across the reload: streamed, far longer than the test (the client leaves once
            // it has seen the request go on after the swap), so no load on the machine can end it before the reload.
            HttpResponse<Stream<String>> running = http.send(completion(base, "standard", LONG_TOKENS, true),
                HttpResponse.BodyHandlers.ofLines());
            assertEquals(200, running.statusCode());
            Iterator<String> events = running.body().iterator();
            nextEvent(events);
            Await.until("the long request dispatched", () -> sample(base, "sluice_queue_dispatched_total",
                "policy_class=\"standard\"") == 1);

            // SIGHUP, the file written in place first (the watch would see it too: either reloads it once).
            Files.writeString(policy, AFTER);
            serve.hangUp();
            Await.until("the reload applied", () -> reloads(base, "applied") == 1);
            assertEquals(1, sample(base, "sluice_requests_completed_total", "model=\"m\""),
                "only the first short request had completed: the long one was in flight at the reload");
            assertEquals("bulk-v2", admittedClass(base, "bulk"));
            // Nothing in flight is lost: the long request streams on after the swap, then ends once, as its client
            // goes.
            nextEvent(events);
            running.body().close();
            Await.until("the long request aborted as its client left", () -> sample(base,
                "sluice_requests_aborted_total", "model=\"m\"") == 1);

            // An invalid file, saved by rename: refused, the old policy serves on.
            replace(policy, INVALID);
            Await.until("the invalid file refused", () -> reloads(base, "refused") == 1);
            Await.until("the refusal logged", () -> serve.output().contains("router policy reload refused"));
            assertTrue(serve.output().contains("the old policy serves on: " + policy
                + ":4:66: policy_classes[0].quantum: quantum must be greater than zero"), serve.output());
            assertEquals("bulk-v2", admittedClass(base, "bulk"));
            assertEquals(1, reloads(base, "applied"));

            // A valid file again, by rename: the watch reloads it.
            replace(policy, THIRD);
            Await.until("the third policy applied", () -> reloads(base, "applied") == 2);
            assertEquals("bulk-v3", admittedClass(base, "bulk"));
            assertEquals(143, serve.stop(), serve.output());
        }
        StringWriter out = new StringWriter();
        CommandLine cli = SluiceMain.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(out));
        int code = cli.execute("replay", "--verify", journal.toString());
        assertEquals(0, code, out.toString());
    }

    /** Writes {@code text} to a new file beside {@code file} and renames it over {@code file}, as editors save. */
    private static void replace(Path file, String text) throws IOException {
        Path next = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(next, text);
        Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private HttpRequest completion(String base, String family, int maxTokens, boolean stream) {
        return HttpRequest.newBuilder(URI.create(base + "/v1/completions")).timeout(Duration.ofSeconds(60))
            .header("Content-Type", "application/json").header("x-dynamo-meta-policy-class", family)
            .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + MODEL + "\",\"prompt\":\"reload me\","
                + "\"max_tokens\":" + maxTokens + ",\"stream\":" + stream + "}", StandardCharsets.UTF_8)).build();
    }

    /** Reads the stream's next event (its {@code data:} line); fails if the stream ends first. */
    private static String nextEvent(Iterator<String> lines) {
        while (lines.hasNext()) {
            String line = lines.next();
            if (line.startsWith("data:")) {
                return line;
            }
        }
        throw new AssertionError("the long request's stream ended");
    }

    /** The class a short request of {@code family} was admitted under ({@code x-sluice-policy-class}). */
    private String admittedClass(String base, String family) throws Exception {
        HttpResponse<String> response = http.send(completion(base, family, 1, false),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return response.headers().firstValue("x-sluice-policy-class").orElseThrow();
    }

    private long reloads(String base, String result) {
        return sample(base, "sluice_policy_reloads_total", "result=\"" + result + "\"");
    }

    /** The value of the sample of {@code name} whose labels contain {@code label}; 0 when there is none. */
    private static long sample(String base, String name, String label) {
        try {
            return ScrapedMetrics.of(URI.create(base).getPort()).sample(name, label);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
