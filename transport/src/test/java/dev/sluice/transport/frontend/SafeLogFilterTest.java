package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.SimpleFormatter;
import org.junit.jupiter.api.Test;

/** No record leaves with a raw client byte, an unbounded message, or more than the rate of Helidon's records. */
class SafeLogFilterTest {
    private final AtomicLong now = new AtomicLong(5_000_000_000L);
    private final SafeLogFilter filter = new SafeLogFilter(now::get, null);

    @Test
    void shouldEscapeLineBreaksAndControlCharactersInMessagesAndExceptions() {
        LogRecord record = record(Level.WARNING, "bad size {0}", "zz\nSEVERE: forged\r\u001b[31m\u2028");
        IllegalStateException cause = new IllegalStateException("cause\nSEVERE: two");
        RuntimeException thrown = new RuntimeException("For input string: \"zz\nSEVERE: forged\"", cause);
        thrown.addSuppressed(new NumberFormatException("suppressed\n\u0000"));
        record.setThrown(thrown);

        assertTrue(filter.isLoggable(record));

        assertEquals("bad size zz\\x0aSEVERE: forged\\x0d\\x1b[31m\\u2028", record.getMessage());
        String formatted = new SimpleFormatter().format(record);
        assertFalse(formatted.contains("\nSEVERE"), formatted);
        assertTrue(formatted.contains("java.lang.RuntimeException: For input string: \"zz\\x0aSEVERE: forged\""),
            formatted);
        assertTrue(formatted.contains("Caused by: java.lang.IllegalStateException: cause\\x0aSEVERE: two"),
            formatted);
        assertTrue(formatted.contains("Suppressed: java.lang.NumberFormatException: suppressed\\x0a\\x00"),
            formatted);
        assertTrue(formatted.contains("at dev.sluice.transport.frontend.SafeLogFilterTest"), formatted);
    }

    @Test
    void shouldCutLongMessagesAndLeaveCleanOnesAlone() {
        String cut = SafeLogFilter.clean("j".repeat(64 * 1024));
        assertEquals(SafeLogFilter.MAX_MESSAGE, cut.length());
        assertTrue(cut.endsWith("more characters)"), cut);
        assertEquals(cut, SafeLogFilter.clean(cut));
        assertEquals(SafeLogFilter.MAX_MESSAGE, SafeLogFilter.clean("\n".repeat(10_000)).length());
        assertEquals("Started all channels in 48 milliseconds.", SafeLogFilter.clean(
            "Started all channels in 48 milliseconds."));
    }

    @Test
    void shouldPassTenHelidonRecordsASecondAndCountTheRest() {
        for (int i = 0; i < SafeLogFilter.RECORDS_PER_SECOND; i++) {
            assertTrue(filter.isLoggable(record(Level.WARNING, "Internal server error")), "record " + i);
        }
        for (int i = 0; i < 25; i++) {
            assertFalse(filter.isLoggable(record(Level.WARNING, "Internal server error")));
        }
        assertTrue(filter.isLoggable(record(Level.SEVERE, "server socket is terminating")), "SEVERE passes");
        now.addAndGet(999_999_999L);
        assertFalse(filter.isLoggable(record(Level.INFO, "still the same second")));

        now.addAndGet(1L);
        LogRecord next = record(Level.WARNING, "Internal server error");
        assertTrue(filter.isLoggable(next));
        assertEquals("(26 similar records dropped before this one) Internal server error", next.getMessage());
        LogRecord after = record(Level.WARNING, "Internal server error");
        assertTrue(filter.isLoggable(after));
        assertEquals("Internal server error", after.getMessage());
    }

    @Test
    void shouldNotLimitOtherLoggers() {
        for (int i = 0; i < 3 * SafeLogFilter.RECORDS_PER_SECOND; i++) {
            LogRecord record = record(Level.WARNING, "line " + i);
            record.setLoggerName("dev.sluice.transport.cli");
            assertTrue(filter.isLoggable(record));
        }
    }

    @Test
    void shouldKeepTheOriginalStackTrace() {
        RuntimeException thrown = new RuntimeException("x");
        LogRecord record = record(Level.WARNING, "failed");
        record.setThrown(thrown);
        filter.isLoggable(record);
        assertEquals(stack(thrown).replace("java.lang.RuntimeException: x", "").length(),
            stack(record.getThrown()).replace("java.lang.RuntimeException: x", "").length());
    }

    private static String stack(Throwable thrown) {
        StringWriter out = new StringWriter();
        thrown.printStackTrace(new PrintWriter(out));
        return out.toString();
    }

    private static LogRecord record(Level level, String message, Object... parameters) {
        LogRecord record = new LogRecord(level, message);
        record.setLoggerName("io.helidon.webserver.http.DirectHandlers");
        record.setParameters(parameters.length == 0 ? null : parameters);
        return record;
    }
}
