package dev.sluice.transport.replay;

import org.agrona.concurrent.NanoClock;

/** The replay's virtual clock: moves only when the driver sets it. Single-threaded. */
final class ReplayClock implements NanoClock {
    private long now;

    ReplayClock(long start) {
        this.now = start;
    }

    @Override
    public long nanoTime() {
        return now;
    }

    void set(long nanos) {
        now = nanos;
    }
}
