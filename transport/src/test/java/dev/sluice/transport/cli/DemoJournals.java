package dev.sluice.transport.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** Journals for the command tests: an in-process demo on two simulated workers, run as a user runs it. */
final class DemoJournals {
    private DemoJournals() {
    }

    /**
     * Runs {@code sluice demo --in-process --duration DURATION --sim-workers 2 --journal-dir JOURNAL}, which must exit
     * 0; returns what it printed.
     */
    static String record(Path journal, String duration) {
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            int code = SluiceMain.commandLine().execute("demo", "--in-process", "--duration", duration,
                "--sim-workers", "2", "--journal-dir", journal.toString());
            assertEquals(0, code, captured.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(original);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }
}
