package dev.sluice.transport.demo;

import org.agrona.concurrent.NanoClock;

/** Simulated time: moves only when the simulation sets it. Read and written on the simulation's thread. */
final class VirtualClock implements NanoClock {
    private long now;

    @Override
    public long nanoTime() {
        return now;
    }

    void set(long nanos) {
        now = nanos;
    }
}
