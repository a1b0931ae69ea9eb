package dev.sluice.transport.frontend;

import java.util.function.LongSupplier;
import java.util.logging.Filter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * A filter on the handlers of {@code java.util.logging}'s root logger, where Helidon logs (through
 * {@code System.Logger}), so that no log line carries a client's bytes raw: a record's message and its exceptions'
 * messages (causes and suppressed ones included) have every character outside printable ASCII written as
 * {@code \xNN} (or {@code \\uNNNN}), CR and LF included, so a client cannot start a line of its own; each message is
 * cut to {@link #MAX_MESSAGE} characters; and Helidon's records below {@code SEVERE} pass at most
 * {@link #RECORDS_PER_SECOND} a second, the next one to pass saying how many were dropped. Thread-safe.
 */
final class SafeLogFilter implements Filter {
    /** The longest message (or exception message) logged, in characters, its cut mark included. */
    static final int MAX_MESSAGE = 1024;
    /** How many of Helidon's records below {@code SEVERE} pass in a second. */
    static final int RECORDS_PER_SECOND = 10;
    private static final long SECOND_NS = 1_000_000_000L;
    private static final int MAX_CAUSES = 8;
    private static final SimpleFormatter FORMATTER = new SimpleFormatter();

    private final LongSupplier nanoClock;
    private final Filter next;
    private long windowStart;
    private boolean started;
    private int passed;
    private long dropped;

    SafeLogFilter(LongSupplier nanoClock, Filter next) {
        this.nanoClock = nanoClock;
        this.next = next;
    }

    /** Puts the filter (in front of any filter they had) on the root logger's handlers; idempotent. */
    static void install() {
        for (Handler handler : Logger.getLogger("").getHandlers()) {
            if (!(handler.getFilter() instanceof SafeLogFilter)) {
                handler.setFilter(new SafeLogFilter(System::nanoTime, handler.getFilter()));
            }
        }
    }

    @Override
    public boolean isLoggable(LogRecord record) {
        if (next != null && !next.isLoggable(record)) {
            return false;
        }
        long droppedBefore = 0;
        if (limited(record)) {
            synchronized (this) {
                long now = nanoClock.getAsLong();
                if (!started || now - windowStart >= SECOND_NS) {
                    started = true;
                    windowStart = now;
                    passed = 0;
                }
                if (passed == RECORDS_PER_SECOND) {
                    dropped++;
                    return false;
                }
                passed++;
                droppedBefore = dropped;
                dropped = 0;
            }
        }
        String message = clean(FORMATTER.formatMessage(record));
        record.setMessage(droppedBefore == 0 ? message
            : "(" + droppedBefore + " similar records dropped before this one) " + message);
        record.setParameters(null);
        record.setResourceBundle(null);
        if (record.getThrown() != null) {
            record.setThrown(clean(record.getThrown(), 0));
        }
        return true;
    }

    private static boolean limited(LogRecord record) {
        String logger = record.getLoggerName();
        return logger != null && logger.startsWith("io.helidon.") && record.getLevel().intValue() < Level.SEVERE
            .intValue();
    }

    /** {@code text} in printable ASCII, at most {@link #MAX_MESSAGE} characters; {@code null} stays null. */
    static String clean(String text) {
        if (text == null) {
            return null;
        }
        StringBuilder out = new StringBuilder(Math.min(text.length(), MAX_MESSAGE));
        int at = 0;
        for (; at < text.length() && out.length() < MAX_MESSAGE; at++) {
            char c = text.charAt(at);
            if (c >= 0x20 && c < 0x7f) {
                out.append(c);
            } else if (c <= 0xff) {
                out.append(String.format("\\x%02x", (int) c));
            } else {
                out.append(String.format("\\u%04x", (int) c));
            }
        }
        if (at == text.length() && out.length() <= MAX_MESSAGE) {
            return out.toString();
        }
        String mark = "...(" + (text.length() - at) + "+ more characters)";
        out.setLength(MAX_MESSAGE - mark.length());
        return out.append(mark).toString();
    }

    /** A copy of {@code thrown} with clean messages, its stack trace, causes and suppressed exceptions. */
    private static Throwable clean(Throwable thrown, int depth) {
        if (thrown instanceof Cleaned) {
            return thrown;
        }
        Throwable cause = thrown.getCause() == null || depth == MAX_CAUSES ? null : clean(thrown.getCause(),
            depth + 1);
        Cleaned copy = new Cleaned(thrown.getClass().getName(), clean(thrown.getMessage()), cause);
        copy.setStackTrace(thrown.getStackTrace());
        if (depth < MAX_CAUSES) {
            for (Throwable suppressed : thrown.getSuppressed()) {
                copy.addSuppressed(clean(suppressed, depth + 1));
            }
        }
        return copy;
    }

    /** An exception as it is logged: the original's class name and clean message. */
    private static final class Cleaned extends Throwable {
        private static final long serialVersionUID = 1L;
        private final String className;

        Cleaned(String className, String message, Throwable cause) {
            super(message, cause, true, true);
            this.className = className;
        }

        @Override
        public String toString() {
            return getMessage() == null ? className : className + ": " + getMessage();
        }
    }
}
