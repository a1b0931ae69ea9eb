package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.journal.FailurePolicy;
import dev.sluice.core.journal.JournalContext;
import dev.sluice.core.router.RouterContext;
import dev.sluice.transport.engine.sim.SimEngineContext;
import dev.sluice.transport.testing.Await;
import dev.sluice.transport.testing.CapturedStderr;
import dev.sluice.transport.testing.RawHttp;
import dev.sluice.transport.testing.ScrapedMetrics;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The journal's directory is deleted (recursively) while {@code serve} runs. With {@link FailurePolicy#CONTINUE}
 * requests keep succeeding, the failure is logged once, and {@code /metrics} shows the journal unavailable and
 * counts the records lost; with {@link FailurePolicy#FAIL_CLOSED} new arrivals answer 503
 * {@code journal_unavailable} while a stream already running finishes. Either way every request ends in exactly
 * one outcome: arrived = completed + rejected + aborted.
 */
class JournalFaultSystemTest {
    private static final String MODEL = "journal-faults";
    private static final byte[] BODY = ("{\"model\":\"" + MODEL + "\",\"prompt\":\"hi\",\"max_tokens\":2}")
        .getBytes(StandardCharsets.UTF_8);
    private static final byte[] LONG_STREAM = ("{\"model\":\"" + MODEL + "\",\"prompt\":\"hi\",\"max_tokens\":300,"
        + "\"stream\":true}").getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path tmp;

    @Test
    void shouldKeepServingCountLostRecordsAndLogOnceWhenContinuing() throws Exception {
        Path dir = tmp.resolve("journal");
        try (Frontend frontend = start(dir, FailurePolicy.CONTINUE); CapturedStderr log = CapturedStderr.start()) {
            send(frontend, 10, 200);
            ScrapedMetrics healthy = ScrapedMetrics.of(frontend.port());
            assertEquals(1, healthy.get("sluice_journal_available"), healthy::toString);
            assertTrue(healthy.get("sluice_journal_records_total") >= 50, healthy::toString);
            assertEquals(0, healthy.get("sluice_journal_lost_records_total"), healthy::toString);

            deleteRecursively(dir);
            Await.until("the journal reported unavailable without traffic", () -> scrape(frontend)
                .get("sluice_journal_available") == 0);
            send(frontend, 30, 200);
            awaitLiveZero(frontend);

            ScrapedMetrics failed = ScrapedMetrics.of(frontend.port());
            assertEquals(0, failed.get("sluice_journal_available"), failed::toString);
            assertTrue(failed.get("sluice_journal_lost_records_total") >= 30 * 5, "five or more records per request"
                + " are lost:\n" + failed);
            assertEquals(0, failed.unbalanced(), failed::toString);
            assertEquals(1, log.count("admission continues without the journal"), log::text);
            assertTrue(log.text().contains(dir.toAbsolutePath() + ": NoSuchFileException"), log::text);
        }
    }

    @Test
    void shouldRefuseNewArrivalsAndFinishLiveOnesWhenFailingClosed() throws Exception {
        Path dir = tmp.resolve("journal");
        try (Frontend frontend = start(dir, FailurePolicy.FAIL_CLOSED)) {
            send(frontend, 5, 200);
            try (RawHttp.Held live = RawHttp.hold(frontend.port(), RawHttp.post("/v1/completions", Map.of(),
                LONG_STREAM), 512)) {
                assertTrue(live.started().startsWith("HTTP/1.1 200"), live.started());
                deleteRecursively(dir);
                Await.until("the journal reported unavailable", () -> scrape(frontend)
                    .get("sluice_journal_available") == 0);
                for (int i = 0; i < 10; i++) {
                    RawHttp.Response refused = post(frontend, BODY);
                    assertEquals(503, refused.status(), refused.text());
                    assertTrue(refused.body().contains("\"code\":\"journal_unavailable\""), refused.body());
                    assertFalse(refused.body().contains(dir.toString()), "no path to the client: " + refused.body());
                }
                assertEquals(1, frontend.router().stats().live(), "the stream admitted before runs on");
                RawHttp.Response finished = live.finish();
                assertTrue(finished.body().contains("data: [DONE]"), finished.text());
                assertFalse(finished.body().contains("\"error\""), finished.text());
            }
            awaitLiveZero(frontend);
            ScrapedMetrics metrics = ScrapedMetrics.of(frontend.port());
            assertEquals(6, metrics.get("sluice_requests_completed_total"), metrics::toString);
            assertEquals(10, metrics.get("sluice_requests_rejected_total"), metrics::toString);
            assertTrue(metrics.get("sluice_journal_lost_records_total") >= 10, metrics::toString);
            assertEquals(0, metrics.unbalanced(), metrics::toString);
        }
    }

    private static Frontend start(Path journal, FailurePolicy policy) throws Exception {
        // Real-time engines: a 300-token stream lasts about two seconds.
        return Frontend.start(new FrontendSettings("127.0.0.1", 0, MODEL, 4096, 16, 529, null, Duration.ofSeconds(5),
            new RouterContext(), new EngineSetup.Simulated(new SimEngineContext().numGpuBlocks(4096).blockSize(16),
                2), new JournalSetup(new JournalContext(journal).failurePolicy(policy), "test", "", "default",
                OptionalDouble.empty(), QueuePolicy.FCFS)));
    }

    private static void send(Frontend frontend, int count, int status) throws IOException {
        for (int i = 0; i < count; i++) {
            RawHttp.Response response = post(frontend, BODY);
            assertEquals(status, response.status(), response.text());
        }
    }

    private static RawHttp.Response post(Frontend frontend, byte[] body) throws IOException {
        return RawHttp.exchange(frontend.port(), RawHttp.post("/v1/completions", Map.of(), body));
    }

    private static ScrapedMetrics scrape(Frontend frontend) {
        try {
            return ScrapedMetrics.of(frontend.port());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
        assertFalse(Files.exists(dir));
    }

    private static void awaitLiveZero(Frontend frontend) {
        Await.until("no live request", () -> frontend.router().stats().live() == 0);
    }
}
