package dev.sluice.transport.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.transport.engine.kv.KvEventSource;
import dev.sluice.transport.frontend.RemoteEngine;
import dev.sluice.transport.testing.Await;
import dev.sluice.transport.testing.ScrapedMetrics;
import dev.sluice.transport.testing.SluiceProcess;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code serve --engine-kv-events} and {@code mock-engine --kv-events}, parsed, refused and run as processes. */
class KvEventsOptionsTest {
    private static final Pattern KV_READY = Pattern.compile("mock-engine publishing KV events on port (\\d+, replay on "
        + "port \\d+)");
    private static final Pattern SERVE_READY = Pattern.compile("sluice serving \\S+ on (http://\\S+)");

    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        picocli.CommandLine cli = SluiceMain.commandLine();
        cli.setOut(new PrintWriter(new StringWriter(), true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Test
    void shouldPairEachKvEventSourceWithTheEngineUrlOfItsPosition() {
        List<Optional<KvEventSource>> sources = SluiceMainTest.serve("--engine-url", "http://127.0.0.1:8001",
            "--engine-url", "http://127.0.0.1:8002", "--engine-kv-events", "none", "--engine-kv-events",
            "tcp://10.0.0.5:5557,replay=tcp://10.0.0.5:5558,topic=kv-events").remote.setup("m", 16).engines()
            .stream().map(RemoteEngine::kvEvents).toList();

        assertEquals(List.of(Optional.empty(), Optional.of(new KvEventSource("tcp://10.0.0.5:5557",
            "tcp://10.0.0.5:5558", "kv-events", 1, KvEventSource.DEFAULT_REPLAY_TIMEOUT))), sources);
        assertEquals(List.of(Optional.empty()), SluiceMainTest.serve("--engine-url", "http://127.0.0.1:8001").remote
            .setup("m", 16).engines().stream().map(RemoteEngine::kvEvents).toList());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "tcp://127.0.0.1:5557,tcp://127.0.0.1:5558 | --engine-kv-events is given 2 time(s) for 1 --engine-url(s)",
        "tcp://*:5557 | the KV-event endpoint 'tcp://*:5557' is not tcp://HOST:PORT (an engine binds tcp://*:PORT; "
            + "connect to its address), ipc://PATH or inproc://NAME",
        "tcp://127.0.0.1:70000 | the KV-event endpoint 'tcp://127.0.0.1:70000' has port 70000, not 1..65535",
        "tcp://127.0.0.1:5557;replay=tcp://127.0.0.1:5558 | is not tcp://HOST:PORT",
        "tcp://127.0.0.1:5557,replay=5558 | the KV-event replay endpoint '5558' is not tcp://HOST:PORT",
        "tcp://127.0.0.1:5557,hwm=5 | 'hwm=5' in 'tcp://127.0.0.1:5557,hwm=5' is neither replay=ENDPOINT nor "
            + "topic=NAME"})
    void shouldExitWith2OnKvEventsThatCannotBeUsed(String value, String message) {
        String[] values = value.split(",tcp");
        if (values.length == 2) {
            assertEquals(2, run("serve", "--no-journal", "--engine-url", "http://127.0.0.1:8001",
                "--engine-kv-events", values[0], "--engine-kv-events", "tcp" + values[1]));
        } else {
            assertEquals(2, run("serve", "--no-journal", "--engine-url", "http://127.0.0.1:8001",
                "--engine-kv-events", value));
        }
        assertTrue(err.toString().contains(message), err::toString);
    }

    @Test
    void shouldRefuseAReplayEndpointWithoutAnEndpointOnTheMockEngine() {
        assertEquals(2, run("mock-engine", "--port", "0", "--kv-events-replay", "tcp://*:5558"));
        assertTrue(err.toString().contains("--kv-events-replay needs --kv-events"), err::toString);
    }

    @Test
    void shouldFeedTheMockEnginesEventsToServeAcrossProcesses() throws Exception {
        try (SluiceProcess mock = SluiceProcess.start(KV_READY, List.of("mock-engine", "--port", "0", "--model-name",
            "m", "--block-size", "16", "--speedup-ratio", "50", "--kv-events", "tcp://127.0.0.1:0",
            "--kv-events-replay", "tcp://127.0.0.1:0"))) {
            Matcher url = Pattern.compile("mock-engine listening on (http://\\S+)").matcher(mock.output());
            assertTrue(url.find(), mock::output);
            String[] ports = mock.ready().split(", replay on port ");
            try (SluiceProcess serve = SluiceProcess.start(SERVE_READY, List.of("serve", "--http-port", "0",
                "--no-journal", "--model-name", "m", "--block-size", "16", "--engine-url", url.group(1),
                "--engine-kv-events", "tcp://127.0.0.1:" + ports[0] + ",replay=tcp://127.0.0.1:" + ports[1]))) {
                assertTrue(serve.output().contains("1 remote engine: " + url.group(1) + "; KV events from 1"),
                    serve::output);
                int port = URI.create(serve.ready()).getPort();
                HttpClient client = HttpClient.newHttpClient();
                AtomicInteger prompts = new AtomicInteger();
                // Each try caches a new prompt on the engine directly; the first ones may pass before the
                // subscription is up.
                Await.until("the engine's KV events in serve's /metrics", () -> {
                    complete(client, url.group(1), "prompt number " + prompts.incrementAndGet() + " of the weir "
                        + "and the mill and the sluice gate that holds the water back");
                    return scrape(port).get("sluice_kv_events_total") > 0;
                });
                assertEquals(0, ScrapedMetrics.of(port).get("sluice_kv_events_dropped_total"));
            }
        }
    }

    private static ScrapedMetrics scrape(int port) {
        try {
            return ScrapedMetrics.of(port);
        } catch (java.io.IOException e) {
            throw new AssertionError("serve does not answer /metrics", e);
        }
    }

    private static void complete(HttpClient client, String url, String prompt) {
        try {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(url + "/v1/completions"))
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"model\":"
                    + "\"m\",\"prompt\":\"" + prompt + "\",\"max_tokens\":1}")).build(),
                HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), response.body());
        } catch (java.io.IOException e) {
            throw new AssertionError("the mock engine does not answer", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
