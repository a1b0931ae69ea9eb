package dev.sluice.transport.testing;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Captures {@code System.err} (where slf4j-simple writes the log) until closed, so a test can check what was
 * logged and how often. Not thread-safe; one at a time.
 */
public final class CapturedStderr implements AutoCloseable {
    private final PrintStream original = System.err;
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

    private CapturedStderr() {
    }

    public static CapturedStderr start() {
        CapturedStderr capture = new CapturedStderr();
        System.setErr(new PrintStream(capture.captured, true, StandardCharsets.UTF_8));
        return capture;
    }

    /** Everything written so far. */
    public String text() {
        return captured.toString(StandardCharsets.UTF_8);
    }

    /** How many times {@code part} was written. */
    public int count(String part) {
        String text = text();
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            count++;
        }
        return count;
    }

    /** Restores {@code System.err}; what was captured can still be read. */
    @Override
    public void close() {
        System.setErr(original);
    }
}
