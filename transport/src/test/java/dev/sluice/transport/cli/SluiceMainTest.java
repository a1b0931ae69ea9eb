package dev.sluice.transport.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.transport.frontend.WorkerHealthSettings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/** The command line as a user meets it: help everywhere, exit 2 on usage errors and bad files. */
class SluiceMainTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = SluiceMain.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "demo", "config", "config check"})
    void shouldPrintHelpForEveryCommand(String command) {
        String[] args = (command + " --help").trim().split(" ");
        assertEquals(0, run(args));
        assertTrue(out.toString().startsWith("Usage: sluice"), out::toString);
    }

    @Test
    void shouldExitWith2OnAnUnknownOption() {
        assertEquals(2, run("demo", "--no-such-option"));
        assertTrue(err.toString().contains("Unknown option: '--no-such-option'"), err::toString);
    }

    @Test
    void shouldExitWith2WithoutACommand() {
        assertEquals(2, run());
        assertTrue(err.toString().contains("a command is required"), err::toString);
    }

    @Test
    void shouldExitWith2OnAnInvalidEngineUrl() {
        assertEquals(2, run("serve", "--no-journal", "--engine-url", "http://127.0.0.1:8001", "--engine-url",
            "localhost:8002"));
        assertTrue(err.toString().contains("engine URL 'localhost:8002' is invalid: the scheme must be http or https"),
            err::toString);
    }

    @Test
    void shouldExitWith2OnANegativeEngineFailureThreshold() {
        assertEquals(2, run("serve", "--no-journal", "--engine-url", "http://127.0.0.1:8001",
            "--engine-failure-threshold", "-1"));
        assertTrue(err.toString().contains("--engine-failure-threshold must be >= 0 (0: never mark an engine "
            + "unhealthy), was -1"), err::toString);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "5s..1s | --engine-retry-backoff must be positive with FIRST at most MAX, e.g. 1s..30s, was 5s..1s",
        "0s | --engine-retry-backoff must be positive with FIRST at most MAX, e.g. 1s..30s, was 0s..0s",
        "soon..later | 'soon..later' is not a backoff; expected FIRST..MAX, e.g. 1s..30s, or one duration, e.g. 5s"})
    void shouldExitWith2OnABadEngineRetryBackoff(String backoff, String message) {
        assertEquals(2, run("serve", "--no-journal", "--engine-url", "http://127.0.0.1:8001",
            "--engine-retry-backoff", backoff));
        assertTrue(err.toString().contains(message), err::toString);
    }

    @Test
    void shouldReadTheEngineHealthOptions() {
        assertEquals(new WorkerHealthSettings(5, Duration.ofMillis(500), Duration.ofSeconds(10)), serve("--engine-url",
            "http://127.0.0.1:8001", "--engine-failure-threshold", "5", "--engine-retry-backoff", "500ms..10s")
            .remote.setup("m", 16).health());
        assertEquals(new WorkerHealthSettings(3, Duration.ofSeconds(5), Duration.ofSeconds(5)), serve("--engine-url",
            "http://127.0.0.1:8001", "--engine-retry-backoff", "5s").remote.setup("m", 16).health());
        assertEquals(WorkerHealthSettings.DEFAULT, serve("--engine-url", "http://127.0.0.1:8001").remote
            .setup("m", 16).health());
    }

    /** {@code sluice serve} with these options, parsed and not run. */
    static ServeCommand serve(String... options) {
        String[] args = new String[options.length + 1];
        args[0] = "serve";
        System.arraycopy(options, 0, args, 1, options.length);
        return (ServeCommand) SluiceMain.commandLine().parseArgs(args).subcommand().commandSpec().userObject();
    }

    @Test
    void shouldExitWith2OnABadDuration() {
        assertEquals(2, run("demo", "--duration", "soon"));
        assertTrue(err.toString().contains("'soon' is not a duration"), err::toString);
    }

    @Test
    void shouldExitWith2OnANegativeClassificationTimeout() {
        assertEquals(2, run("serve", "--classification-timeout", "-1s"));
        assertTrue(err.toString().contains("--classification-timeout must not be negative, was PT-1S"), err::toString);
    }

    @Test
    void shouldNameTheSchedulerIdleModes() {
        assertEquals(2, run("serve", "--scheduler-idle", "nap"));
        assertTrue(err.toString().contains("expected one of [WAIT, SPIN, COMBINE]"), err::toString);
    }

    @Test
    void shouldCheckEngineOptionsEvenWithoutAnEngineUrl() {
        assertEquals(2, run("serve", "--engine-retry-backoff", "5s..1s"));
        assertTrue(err.toString().contains("--engine-retry-backoff must be positive with FIRST at most MAX"),
            err::toString);
    }

    @Test
    void shouldRefuseAClassificationTimeoutOnTheVirtualClock() {
        assertEquals(2, run("demo", "--in-process", "--classification-timeout", "1s"));
        assertTrue(err.toString().contains("applies to the HTTP demo, not --in-process"), err::toString);
    }

    @Test
    void shouldRejectAnInvalidPolicyFileWithItsLineAndKey(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("bad.yaml");
        Files.writeString(file, "default_policy_family: standard\nuncached_isl_buckets:\n  - min_tokens: 0\n"
            + "    bucket: all\npolicy_classes:\n  - name: standard_all\n    policy_family: standard\n"
            + "    cache_bucket: all\n    quantum: 0\n");
        assertEquals(2, run("config", "check", file.toString()));
        assertEquals("sluice: " + file + ":9:5: policy_classes[0].quantum: quantum must be greater than zero\n",
            err.toString());
    }

    @Test
    void shouldNameTheUnlinkedClassifierType(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("classifier.yaml");
        Files.writeString(file,
            "request_classifier:\n  type: acme-queue-budget\n  parameters:\n    max_wait_ms: 2000\n");
        assertEquals(2, run("config", "check", file.toString()));
        assertTrue(err.toString().contains("unknown request-classifier type \"acme-queue-budget\""), err::toString);
    }

    @Test
    void shouldDescribeAValidFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("good.yaml");
        Files.writeString(file, "default_policy_family: standard\nuncached_isl_buckets:\n  - min_tokens: 0\n"
            + "    bucket: all\npolicy_classes:\n  - name: standard_all\n    policy_family: standard\n"
            + "    cache_bucket: all\n    queue_policy: fcfs\n    quantum: 1\n    prefill_busy_threshold_frac: 1.0\n");
        assertEquals(0, run("config", "check", file.toString()));
        assertTrue(out.toString().contains("1. standard_all"), out::toString);
        assertTrue(out.toString().endsWith(file + ": valid\n"), out::toString);
    }

    @Test
    void shouldRefuseToStartTheDemoWithABadPolicyFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("bad.yaml");
        Files.writeString(file, "default_policy_family: x\nuncached_isl_buckets: []\npolicy_classes: []\n");
        assertEquals(2, run("demo", "--router-policy-config", file.toString()));
        assertTrue(err.toString().startsWith("sluice: " + file + ":2:"), err::toString);
    }

    @Test
    void shouldRunTheDemoAndEndEveryRequestExactlyOnce() {
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = run("demo", "--in-process", "--duration", "20s", "--seed", "7", "--no-journal");
        } finally {
            System.setOut(original);
        }
        String text = captured.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, text);
        assertTrue(text.contains("every request ended exactly once: yes"), text);
        assertTrue(text.contains("deadline_exceeded (429)"), text);
        assertTrue(text.contains("agent_long"), text);
    }
}
