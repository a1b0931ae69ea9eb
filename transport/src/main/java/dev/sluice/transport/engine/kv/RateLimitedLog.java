package dev.sluice.transport.engine.kv;

import java.util.function.Consumer;
import org.agrona.concurrent.NanoClock;

/**
 * At most one line per interval, so that an engine sending garbage cannot flood the log: the first line is written
 * at once, lines within the interval after it are counted, and the next line written says how many were held back.
 * Owned by one thread (a subscriber's); not thread-safe.
 */
final class RateLimitedLog {
    private final Consumer<String> out;
    private final NanoClock clock;
    private final long intervalNs;
    private boolean written;
    private long lastNs;
    private long held;

    RateLimitedLog(Consumer<String> out, NanoClock clock, long intervalNs) {
        this.out = out;
        this.clock = clock;
        this.intervalNs = intervalNs;
    }

    void log(String line) {
        long now = clock.nanoTime();
        if (written && now - lastNs < intervalNs) {
            held++;
            return;
        }
        out.accept(held == 0 ? line : line + " (and " + held + " more since the last line)");
        written = true;
        lastNs = now;
        held = 0;
    }
}
