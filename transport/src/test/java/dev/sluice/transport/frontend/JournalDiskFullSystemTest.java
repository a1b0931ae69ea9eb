package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.journal.FailurePolicy;
import dev.sluice.core.journal.JournalContext;
import dev.sluice.core.journal.JournalException;
import dev.sluice.core.journal.JournalReader;
import dev.sluice.core.router.RouterContext;
import dev.sluice.transport.engine.sim.SimEngineContext;
import dev.sluice.transport.testing.Await;
import dev.sluice.transport.testing.CapturedStderr;
import dev.sluice.transport.testing.RawHttp;
import dev.sluice.transport.testing.ScrapedMetrics;
import dev.sluice.transport.testing.TinyTmpfs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The journal's disk fills up under {@code serve}: a tmpfs of 1 MiB or less (mounting needs root; skipped
 * otherwise). With the free-space reserve the journal fails cleanly between records; without it the write to a
 * mapped page faults (SIGBUS), which the JVM turns into an {@code InternalError} that the writer contains. Either
 * way the failure policy applies, every request ends in exactly one outcome, and every record written before the
 * failure reads back.
 */
class JournalDiskFullSystemTest {
    private static final String MODEL = "disk-full";
    // 400 words: about 25 block hashes, so each arrival's record is a few hundred bytes.
    private static final byte[] BODY = ("{\"model\":\"" + MODEL + "\",\"prompt\":\"" + "word ".repeat(400)
        + "\",\"max_tokens\":1}").getBytes(StandardCharsets.UTF_8);
    private static final int MAX_REQUESTS = 5_000;

    @TempDir
    Path tmp;

    @Test
    void shouldRefuseArrivalsOnceBelowTheReserveWhenFailingClosed() throws Exception {
        try (TinyTmpfs disk = TinyTmpfs.mount(tmp.resolve("disk"), "1m")) {
            Path dir = disk.path().resolve("journal");
            JournalContext journal = new JournalContext(dir).failurePolicy(FailurePolicy.FAIL_CLOSED)
                .minFreeBytes(768 * 1024);
            long records;
            try (CapturedStderr log = CapturedStderr.start(); Frontend frontend = start(journal)) {
                int served = 0;
                RawHttp.Response response = post(frontend);
                while (response.status() == 200 && served < MAX_REQUESTS) {
                    served++;
                    response = post(frontend);
                }
                assertEquals(503, response.status(), "after " + served + " requests: " + response.text());
                assertTrue(response.body().contains("\"code\":\"journal_unavailable\""), response.body());
                assertTrue(served > 10, "served " + served);
                assertEquals(503, post(frontend).status());
                awaitLiveZero(frontend);
                ScrapedMetrics metrics = ScrapedMetrics.of(frontend.port());
                assertEquals(0, metrics.get("sluice_journal_available"), metrics::toString);
                assertEquals(0, metrics.unbalanced(), metrics::toString);
                assertEquals(served, metrics.get("sluice_requests_completed_total"), metrics::toString);
                records = metrics.get("sluice_journal_records_total");
                assertTrue(log.text().contains("below the journal's reserve of 786432 bytes"), log::text);
            }
            assertEquals(records + 1, readBack(dir), "the header and every record written");

            JournalException restart = assertThrows(JournalException.class, () -> start(journal).close());
            assertTrue(restart.getMessage().contains(dir.toString()) && restart.getMessage().contains("bytes free"),
                restart.getMessage());
        }
    }

    @Test
    void shouldContainTheMappedWriteFaultWhenTheReserveIsOff() throws Exception {
        try (TinyTmpfs disk = TinyTmpfs.mount(tmp.resolve("disk"), "256k")) {
            Path dir = disk.path().resolve("journal");
            JournalContext journal = new JournalContext(dir).failurePolicy(FailurePolicy.CONTINUE).minFreeBytes(0);
            long records;
            try (CapturedStderr log = CapturedStderr.start(); Frontend frontend = start(journal)) {
                int served = 0;
                while (ScrapedMetrics.of(frontend.port()).get("sluice_journal_available") == 1) {
                    assertTrue(served < MAX_REQUESTS, "the disk never filled");
                    for (int i = 0; i < 50; i++, served++) {
                        RawHttp.Response response = post(frontend);
                        assertEquals(200, response.status(), response.text());
                    }
                }
                for (int i = 0; i < 20; i++, served++) {
                    assertEquals(200, post(frontend).status(), "continues without the journal");
                }
                awaitLiveZero(frontend);
                ScrapedMetrics metrics = ScrapedMetrics.of(frontend.port());
                assertEquals(0, metrics.unbalanced(), metrics::toString);
                assertEquals(served, metrics.get("sluice_requests_completed_total"), metrics::toString);
                assertTrue(metrics.get("sluice_journal_lost_records_total") >= 20 * 5, metrics::toString);
                records = metrics.get("sluice_journal_records_total");
                assertEquals(1, log.count("admission continues without the journal"), log::text);
                assertTrue(log.text().contains("InternalError: a fault occurred in an unsafe memory access operation"
                    + " (a write to the memory-mapped journal file faulted; 0 bytes free on its file system)"),
                    log::text);
            }
            assertEquals(records + 1, readBack(dir), "the header and every record written, not the torn one");
        }
    }

    private static Frontend start(JournalContext journal) throws JournalException {
        return Frontend.start(new FrontendSettings("127.0.0.1", 0, MODEL, 1 << 16, 16, 529, null,
            Duration.ofSeconds(2), new RouterContext(), new EngineSetup.Simulated(new SimEngineContext()
                .numGpuBlocks(4096).blockSize(16).speedupRatio(50), 2), new JournalSetup(journal, "test", "",
                "default", OptionalDouble.empty(), QueuePolicy.FCFS)));
    }

    private static RawHttp.Response post(Frontend frontend) throws IOException {
        return RawHttp.exchange(frontend.port(), RawHttp.post("/v1/completions", Map.of(), BODY));
    }

    /** Records read back from the journal, the header included; none undecodable. */
    private static long readBack(Path dir) throws JournalException {
        try (JournalReader reader = JournalReader.open(dir)) {
            long count = reader.readAll().size();
            assertEquals(0, reader.undecodable());
            return count;
        }
    }

    private static void awaitLiveZero(Frontend frontend) {
        Await.until("no live request", () -> frontend.router().stats().live() == 0);
    }
}
