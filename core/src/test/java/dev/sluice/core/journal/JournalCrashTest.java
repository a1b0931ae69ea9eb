package dev.sluice.core.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.testing.SteppedRouter;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * After {@code kill -9} of a writing process, every record it wrote is readable and its torn last record is not
 * returned; a writer started on the same directory appends after them. The child runs with this JVM's flags and
 * class path.
 */
class JournalCrashTest {
    private static final int REQUESTS = 500;

    @TempDir
    Path dir;

    @Test
    void shouldReadEveryRecordWrittenBeforeKillMinus9() throws Exception {
        long written = killWritingChild();
        // 1 worker join, then per request: arrived, classified, enqueued, dispatched, completed.
        assertEquals(1 + 5L * REQUESTS, written);
        try (JournalReader reader = JournalReader.open(dir)) {
            List<JournalRecord> records = reader.readAll();
            assertInstanceOf(JournalRecord.Header.class, records.get(0));
            assertEquals(written, records.size() - 1, "every record before the kill, not the torn one");
            JournalRecord.Completed last = assertInstanceOf(JournalRecord.Completed.class,
                records.get(records.size() - 1));
            assertEquals(20, last.contextTokens());
            assertEquals(0, reader.undecodable());
        }
    }

    @Test
    void shouldAppendANewRunAfterTheTornTailWhenRestarted() throws Exception {
        long written = killWritingChild();
        // Chronicle's write lock is still held by the dead child: the new writer must take it over, not wait.
        try (JournalWriter again = JournalWriter.open(new JournalContext(dir), JournalFixtures.header(0));
             SteppedRouter r = JournalFixtures.router(again)) {
            r.worker(1, 1_000_000);
            long id = r.submit("after-restart", 10);
            r.router.completed(id, 30);
            r.step();
            assertTrue(again.available());
            assertEquals(6, again.recordsWritten());
        }
        try (JournalReader reader = JournalReader.open(dir)) {
            List<JournalRecord> records = reader.readAll();
            assertEquals(0, reader.undecodable());
            // The first run, then the second: its header, 6 records, and the clean close.
            assertEquals(1 + written + 1 + 6 + 1, records.size());
            int second = (int) (1 + written);
            assertInstanceOf(JournalRecord.Header.class, records.get(second));
            assertInstanceOf(JournalRecord.Completed.class, records.get(second - 1));
            JournalRecord.Arrived arrived = assertInstanceOf(JournalRecord.Arrived.class, records.get(second + 2));
            assertEquals("after-restart", arrived.request().requestId());
            assertEquals(30, assertInstanceOf(JournalRecord.Completed.class, records.get(records.size() - 2))
                .contextTokens());
            assertInstanceOf(JournalRecord.Closed.class, records.get(records.size() - 1));
        }
    }

    /** Runs {@link JournalCrashChild} until it has written and torn its last record, kills it; records written. */
    private long killWritingChild() throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(JournalCrashChild.class.getName());
        command.add(dir.toString());
        command.add(Integer.toString(REQUESTS));
        Process child = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
            StandardCharsets.UTF_8))) {
            String line;
            do {
                line = out.readLine();
            } while (line != null && !line.startsWith("READY "));
            assertTrue(line != null, "the child died before it was ready");
            return Long.parseLong(line.substring("READY ".length()));
        } finally {
            child.destroyForcibly();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS), "the child did not die");
        }
    }
}
