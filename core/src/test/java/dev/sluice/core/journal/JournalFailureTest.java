package dev.sluice.core.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.testing.RecordingListener;
import dev.sluice.core.testing.SteppedRouter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A journal that cannot write says where and why, counts what it loses, and either lets admission continue or
 * refuses new arrivals with 503 journal_unavailable.
 */
class JournalFailureTest {
    @TempDir
    Path tmp;

    /** A directory that cannot be created, whoever runs the test (root ignores permission bits): under a file. */
    private Path unwritable() throws IOException {
        Path file = Files.writeString(tmp.resolve("not-a-directory"), "x");
        return file.resolve("journal");
    }

    @Test
    void shouldNameTheDirectoryAndTheCauseWhenFailingClosed() throws IOException {
        Path dir = unwritable();
        JournalException e = assertThrows(JournalException.class, () -> JournalWriter.open(
            new JournalContext(dir).failurePolicy(FailurePolicy.FAIL_CLOSED), JournalFixtures.header(0)));
        assertTrue(e.getMessage().startsWith("cannot write the journal in directory " + dir.toAbsolutePath() + ": "),
            e.getMessage());
        assertTrue(e.getMessage().contains("Exception"), "names the cause: " + e.getMessage());
    }

    @Test
    void shouldContinueWithoutTheJournalAndCountLostRecords() throws IOException {
        Path dir = unwritable();
        try (JournalWriter journal = JournalWriter.open(new JournalContext(dir).failurePolicy(FailurePolicy.CONTINUE),
            JournalFixtures.header(0)); SteppedRouter r = JournalFixtures.router(journal)) {
            assertFalse(journal.available());
            assertTrue(journal.lastFailure().getMessage().contains(dir.toAbsolutePath().toString()));
            JournalFixtures.scenario(r);
            assertEquals(0, journal.recordsWritten());
            assertTrue(journal.recordsDropped() > 20, "dropped " + journal.recordsDropped());
            assertEquals(1, journal.failures());
            long dispatched = r.listener.inOrder().stream().filter(RecordingListener.Outcome::dispatched).count();
            assertEquals(4, dispatched, "admission went on: " + r.listener.inOrder());
        } catch (JournalException e) {
            throw new AssertionError("CONTINUE must not throw", e);
        }
    }

    @Test
    void shouldRefuseNewArrivalsWith503OnceAWriteFailsWhenFailingClosed() throws JournalException {
        try (JournalWriter journal = JournalWriter.open(new JournalContext(tmp.resolve("j")),
            JournalFixtures.header(0));
             SteppedRouter r = JournalFixtures.router(journal)) {
            r.worker(1, 100_000);
            long before = r.submit("c-1", 10);
            assertTrue(r.listener.outcome(before).dispatched());
            journal.queue().close();
            long during = r.submit("c-2", 10);
            assertTrue(r.listener.outcome(during).dispatched(), "a lifecycle already admitted runs on");
            assertFalse(journal.available());
            long after = r.submit("c-3", 10);
            RecordingListener.Outcome refused = r.listener.outcome(after);
            assertEquals("journal_unavailable", refused.error().reason());
            assertEquals(503, refused.error().httpStatus(529));
            assertTrue(refused.error().diagnostic().contains(tmp.resolve("j").toAbsolutePath().toString()));
            assertTrue(journal.recordsDropped() >= 2);
        }
    }

    @Test
    void shouldRefuseToOpenWhenTheDiskHasLessFreeSpaceThanTheReserve() {
        Path dir = tmp.resolve("reserve");
        JournalException e = assertThrows(JournalException.class, () -> JournalWriter.open(
            new JournalContext(dir).minFreeBytes(Long.MAX_VALUE), JournalFixtures.header(0)));
        assertTrue(e.getMessage().contains("bytes free on its file system, below the journal's reserve of "
            + Long.MAX_VALUE + " bytes"), e.getMessage());
        assertTrue(e.getMessage().startsWith("cannot write the journal in directory " + dir.toAbsolutePath()),
            e.getMessage());
    }

    @Test
    void shouldNoticeADeletedDirectoryAndRefuseArrivalsWhenFailingClosed() throws Exception {
        Path dir = tmp.resolve("deleted");
        try (JournalWriter journal = JournalWriter.open(new JournalContext(dir), JournalFixtures.header(0));
             SteppedRouter r = JournalFixtures.router(journal)) {
            r.worker(1, 100_000);
            long before = r.submit("c-1", 10);
            assertTrue(r.listener.outcome(before).dispatched());
            long written = journal.recordsWritten();
            deleteRecursively(dir);
            awaitUnavailable(journal);
            long after = r.submit("c-2", 10);
            RecordingListener.Outcome refused = r.listener.outcome(after);
            assertEquals("journal_unavailable", refused.error().reason());
            assertTrue(refused.error().diagnostic().contains("deleted"), refused.error().diagnostic());
            assertEquals(written, journal.recordsWritten(), "nothing more written into the deleted file");
            assertEquals(1, journal.failures());
            assertTrue(journal.recordsDropped() >= 1, "the refusal's record is lost: " + journal.recordsDropped());
        }
    }

    @Test
    void shouldNoticeADeletedDirectoryAndCountLostRecordsWhenContinuing() throws Exception {
        Path dir = tmp.resolve("deleted");
        try (JournalWriter journal = JournalWriter.open(new JournalContext(dir).failurePolicy(FailurePolicy.CONTINUE),
            JournalFixtures.header(0)); SteppedRouter r = JournalFixtures.router(journal)) {
            r.worker(1, 100_000);
            deleteRecursively(dir);
            awaitUnavailable(journal);
            long id = r.submit("c-1", 10);
            assertTrue(r.listener.outcome(id).dispatched(), "admission goes on");
            assertEquals(4, journal.recordsDropped(), "arrived, classified, enqueued, dispatched");
            assertEquals(1, journal.failures());
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (var paths = Files.walk(dir)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    /** The watch reports the deletion on its own thread: wait for it (bounded), without sleeping. */
    private static void awaitUnavailable(JournalWriter journal) {
        long giveUp = System.nanoTime() + 20_000_000_000L;
        while (journal.available()) {
            if (System.nanoTime() > giveUp) {
                throw new AssertionError("the deletion of the journal's directory went unnoticed");
            }
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
        }
    }

    @Test
    void shouldDeleteCyclesOlderThanTheRetentionWindow() throws IOException {
        JournalRetention retention = new JournalRetention(tmp, net.openhft.chronicle.queue.RollCycles.FAST_HOURLY, 3);
        int now = 500_000;
        for (int cycle = now - 5; cycle <= now; cycle++) {
            Files.writeString(tmp.resolve(retention.nameOf(cycle) + ".cq4"), "");
        }
        Files.writeString(tmp.resolve("metadata.cq4t"), "");
        assertEquals(3, retention.apply(now));
        for (int cycle = now - 5; cycle <= now; cycle++) {
            assertEquals(cycle > now - 3, Files.exists(tmp.resolve(retention.nameOf(cycle) + ".cq4")),
                "cycle " + cycle);
        }
        assertTrue(Files.exists(tmp.resolve("metadata.cq4t")));
    }
}
