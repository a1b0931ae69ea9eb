package dev.sluice.transport.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.journal.JournalReader;
import dev.sluice.core.journal.JournalRecord;
import dev.sluice.transport.engine.mock.MockEngineServer;
import dev.sluice.transport.engine.mock.MockEngineSettings;
import dev.sluice.transport.engine.sim.SimEngineContext;
import dev.sluice.transport.engine.telemetry.Exposition;
import dev.sluice.transport.engine.telemetry.PrometheusParser;
import dev.sluice.transport.testing.Await;
import dev.sluice.transport.testing.DirectLoad;
import dev.sluice.transport.testing.RawHttp;
import dev.sluice.transport.testing.SluiceProcess;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice serve --engine-url} as its own process in front of two mock engines on loopback, each publishing
 * vLLM's {@code /metrics}: the workers' KV capacity comes from the engines without {@code --engine-total-kv-blocks},
 * and an engine that another client loads directly (requests the router never sent, queued in the engine) is busy
 * for the router, which places elsewhere. Every wait is for an outcome: a figure in serve's {@code /metrics}.
 */
class ServeEngineTelemetrySystemTest {
    private static final Pattern READY = Pattern.compile("sluice serving \\S+ on (http://\\S+)");
    private static final String MODEL = "weir-7b";

    @TempDir
    Path tmp;

    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
    }

    private String mock(long blocks, int maxNumSeqs, double speedup) {
        MockEngineServer server = MockEngineServer.start(new MockEngineSettings("127.0.0.1", 0, MODEL, 16,
            new SimEngineContext().numGpuBlocks(blocks).blockSize(16).maxNumSeqs(maxNumSeqs).speedupRatio(speedup)));
        opened.add(server);
        return "http://127.0.0.1:" + server.port();
    }

    private SluiceProcess serve(List<String> options) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("serve", "--http-port", "0", "--model-name", MODEL,
            "--block-size", "16", "--engine-metrics-interval", "50ms", "--grace-period", "5s"));
        args.addAll(options);
        SluiceProcess serve = SluiceProcess.start(READY, args);
        opened.add(serve);
        return serve;
    }

    /** A figure of serve's {@code /metrics} for worker {@code worker}, summed over its other labels; -1 if none. */
    private static double gauge(SluiceProcess serve, String name, int worker) {
        try {
            RawHttp.Response response = RawHttp.exchange(port(serve), ("GET /metrics HTTP/1.1\r\nHost: x\r\n"
                + "Connection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            Exposition exposition = PrometheusParser.parse(response.body());
            assertEquals(List.of(), exposition.errors(), "sluice's own /metrics is clean Prometheus text");
            double sum = -1;
            for (Exposition.Sample sample : exposition.named(name)) {
                if (String.valueOf(worker).equals(sample.label("worker_id"))) {
                    sum = Math.max(sum, 0) + sample.value();
                }
            }
            return sum;
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static int port(SluiceProcess serve) {
        return URI.create(serve.ready()).getPort();
    }

    @Test
    void shouldTakeCapacityFromTheEnginesAndPlaceAwayFromOneLoadedByAnotherClient() throws Exception {
        String loaded = mock(512, 1, 1);
        String free = mock(1024, 8, 20);
        Path journal = tmp.resolve("journal");
        SluiceProcess serve = serve(List.of("--engine-url", loaded, "--engine-url", free, "--router-queue-threshold",
            "1.0", "--journal-dir", journal.toString()));

        Await.until("both workers' capacity from their engines", () -> gauge(serve, "sluice_worker_total_kv_blocks",
            0) == 512 && gauge(serve, "sluice_worker_total_kv_blocks", 1) == 1024);

        // 3000 tokens take about 20 s on the loaded engine: one runs, two wait in it, none of them the router's.
        DirectLoad direct = DirectLoad.start(loaded, MODEL, 3, 3000);
        opened.add(direct);
        Await.until("worker 0's engine reports two waiting requests", () -> gauge(serve,
            "sluice_worker_engine_waiting_requests", 0) == 2 && gauge(serve, "sluice_worker_engine_kv_blocks_used", 0)
            > 0);
        for (int i = 0; i < 4; i++) {
            RawHttp.Response response = RawHttp.exchange(port(serve), RawHttp.post("/v1/completions",
                Map.of("x-request-id", "through-" + i), ("{\"model\":\"" + MODEL + "\",\"prompt\":\"open gate " + i
                    + "\",\"max_tokens\":4}").getBytes(StandardCharsets.UTF_8)));
            assertEquals(200, response.status(), response.text());
        }
        assertEquals(143, serve.stop(), serve.output());

        List<JournalRecord> records;
        try (JournalReader reader = JournalReader.open(journal)) {
            records = reader.readAll();
        }
        List<WorkerWithDpRank> placed = records.stream().filter(JournalRecord.Dispatched.class::isInstance)
            .map(r -> ((JournalRecord.Dispatched) r).worker()).toList();
        assertEquals(List.of(WorkerWithDpRank.of(1), WorkerWithDpRank.of(1), WorkerWithDpRank.of(1),
            WorkerWithDpRank.of(1)), placed, "worker 0 is busy with requests the router never sent");
        assertTrue(records.stream().anyMatch(r -> r instanceof JournalRecord.WorkerJoined j
            && j.worker().equals(WorkerWithDpRank.of(0)) && j.totalKvBlocks() == 512), "journaled as an input");
        assertTrue(records.stream().anyMatch(r -> r instanceof JournalRecord.WorkerLoadRecord l
            && l.load().worker().equals(WorkerWithDpRank.of(0)) && l.load().waitingRequests() == 2));
    }

    @Test
    void shouldLetTheOperatorsCapacityWinOverTheEngines() throws Exception {
        String engine = mock(512, 8, 20);
        SluiceProcess serve = serve(List.of("--engine-url", engine, "--engine-total-kv-blocks", "777"));

        Await.until("two scrapes of the engine", () -> gauge(serve, "sluice_engine_metrics_scrapes_total", 0) >= 2);

        assertEquals(777, gauge(serve, "sluice_worker_total_kv_blocks", 0), serve.output());
        assertEquals(0, gauge(serve, "sluice_engine_metrics_scrape_failures_total", 0));
        assertTrue(serve.output().contains("its engine (vllm) has KV room for 512 blocks of 16 tokens, the configured "
            + "777 blocks win"), serve.output());
    }
}
