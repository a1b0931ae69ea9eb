package dev.sluice.core.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * returned. The child runs with this JVM's flags and class path.
 */
class JournalCrashTest {
    private static final int REQUESTS = 500;

    @TempDir
    Path dir;

    @Test
    void shouldReadEveryRecordWrittenBeforeKillMinus9() throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(JournalCrashChild.class.getName());
        command.add(dir.toString());
        command.add(Integer.toString(REQUESTS));
        Process child = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        long written;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
            StandardCharsets.UTF_8))) {
            String line;
            do {
                line = out.readLine();
            } while (line != null && !line.startsWith("READY "));
            assertTrue(line != null, "the child died before it was ready");
            written = Long.parseLong(line.substring("READY ".length()));
        } finally {
            child.destroyForcibly();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS), "the child did not die");
        }
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
}
