package dev.sluice.core.testing;

import java.time.Duration;
import org.agrona.concurrent.NanoClock;

/** A clock that moves only when a test says so. Thread-safe. */
public final class ManualClock implements NanoClock {
    private volatile long now;

    public ManualClock(long startNanos) {
        this.now = startNanos;
    }

    public ManualClock() {
        this(1_000_000_000L);
    }

    @Override
    public long nanoTime() {
        return now;
    }

    public void advance(Duration by) {
        now += by.toNanos();
    }

    public void set(long nanos) {
        now = nanos;
    }
}
