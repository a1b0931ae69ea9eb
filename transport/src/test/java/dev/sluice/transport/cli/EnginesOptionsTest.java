package dev.sluice.transport.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.transport.engine.kv.KvEventSource;
import dev.sluice.transport.frontend.EnginesFile;
import dev.sluice.transport.frontend.RemoteEngine;
import dev.sluice.transport.testing.Await;
import dev.sluice.transport.testing.SluiceProcess;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code serve --engines FILE}: refused with the flags it replaces, read strictly, and run as a process. */
class EnginesOptionsTest {
    private static final Pattern MOCK_READY = Pattern.compile("mock-engine listening on (http://\\S+)");
    private static final Pattern SERVE_READY = Pattern.compile("sluice serving .+ on (http://\\S+) ");

    @TempDir
    Path dir;

    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        picocli.CommandLine cli = SluiceMain.commandLine();
        cli.setOut(new PrintWriter(new StringWriter(), true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    private Path file(String yaml) throws Exception {
        Path file = dir.resolve("engines.yaml");
        Files.writeString(file, yaml);
        return file;
    }

    @ParameterizedTest
    @ValueSource(strings = {"--engine-url=http://127.0.0.1:8001", "--tokenizer=/tmp", "--model-name=m",
        "--engine-model=m"})
    void shouldRefuseTheFlagsTheFileReplaces(String option) throws Exception {
        Path file = file("models:\n  m:\n    engines:\n      - url: http://127.0.0.1:8001\n");

        assertEquals(2, run("serve", "--no-journal", "--engines", file.toString(), option));
        assertTrue(err.toString().contains("--engines and " + option.substring(0, option.indexOf('='))
            + " cannot be given together"), err::toString);
    }

    @Test
    void shouldExitWith2NamingTheLineAndKeyOfABadFile() throws Exception {
        Path file = file("models:\n  m:\n    engines:\n      - url: http://127.0.0.1:8001\n        kv_event: x\n");

        assertEquals(2, run("serve", "--no-journal", "--engines", file.toString()));
        assertTrue(err.toString().contains(file + ":5:9: models.m.engines[0]"), err::toString);
        assertTrue(err.toString().contains("kv_event"), err::toString);
    }

    @Test
    void shouldTakeWhatTheFileLeavesOutFromTheEngineOptions() throws Exception {
        EnginesFile.Model model = EnginesFile.read(file("models:\n  m:\n    engine_model: org/m\n    engines:\n"
            + "      - url: http://10.0.0.1:8000\n        kv_events: tcp://10.0.0.1:5557\n"
            + "        kv_replay: tcp://10.0.0.1:5558\n        total_kv_blocks: 999\n        metrics: false\n"
            + "      - url: http://10.0.0.2:8000/v1\n")).models().get("m");

        List<RemoteEngine> engines = SluiceMainTest.serve("--engine-max-num-batched-tokens", "4096").remote
            .remoteEngines(model, 32);

        RemoteEngine first = engines.get(0);
        assertEquals(Optional.of(new KvEventSource("tcp://10.0.0.1:5557", "tcp://10.0.0.1:5558")), first.kvEvents());
        assertEquals(Optional.empty(), first.metrics());
        assertEquals(999, first.http().runtimeConfig().totalKvBlocks());
        assertFalse(first.capacityFromEngine(), "the file's capacity wins over the engine's");
        assertEquals("org/m", first.http().model());
        RemoteEngine second = engines.get(1);
        assertEquals(Optional.of(URI.create("http://10.0.0.2:8000/metrics")), second.metrics());
        assertTrue(second.capacityFromEngine());
        assertEquals(4096, second.http().runtimeConfig().maxNumBatchedTokens());
        assertEquals(32, second.http().runtimeConfig().blockSize());
    }

    @Test
    void shouldServeTheFilesModelsAndTakeAnEngineAddedToIt() throws Exception {
        try (SluiceProcess first = mock("alpha"); SluiceProcess second = mock("alpha");
             SluiceProcess other = mock("beta")) {
            Path file = file("models:\n  alpha:\n    engines:\n      - url: " + url(first) + "\n  beta:\n"
                + "    engines:\n      - url: " + url(other) + "\n");
            try (SluiceProcess serve = SluiceProcess.start(SERVE_READY, List.of("serve", "--http-port", "0",
                "--no-journal", "--engines", file.toString()))) {
                String base = serve.ready();
                assertTrue(serve.output().contains("sluice serving alpha, beta on"), serve::output);
                HttpClient client = HttpClient.newHttpClient();
                String models = client.send(HttpRequest.newBuilder(URI.create(base + "/v1/models")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
                assertTrue(models.contains("\"alpha\"") && models.contains("\"beta\""), models);
                assertEquals(200, complete(client, base, "beta"));

                Files.writeString(file, "models:\n  alpha:\n    engines:\n      - url: " + url(first) + "\n"
                    + "      - url: " + url(second) + "\n  beta:\n    engines:\n      - url: " + url(other) + "\n");
                Await.until("the engine added to the file joins", () -> serve.output().contains("worker 1 ("
                    + url(second) + ") joined"));
                assertEquals(200, complete(client, base, "alpha"));
            }
        }
    }

    private static SluiceProcess mock(String model) throws Exception {
        return SluiceProcess.start(MOCK_READY, List.of("mock-engine", "--port", "0", "--model-name", model,
            "--speedup-ratio", "50"));
    }

    private static String url(SluiceProcess mock) {
        Matcher url = MOCK_READY.matcher(mock.output());
        assertTrue(url.find(), mock::output);
        return url.group(1);
    }

    private static int complete(HttpClient client, String base, String model) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(base + "/v1/completions"))
            .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"model\":\""
                + model + "\",\"prompt\":\"hello\",\"max_tokens\":2}")).build(),
            HttpResponse.BodyHandlers.ofString()).statusCode();
    }
}
