package dev.sluice.transport.cluster;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * Replica-sync lag: from a booking's sending on another replica (its wall clock) to its application on this
 * replica's scheduler thread (this one's), in microseconds. Across machines it includes their clock skew, so a
 * negative lag counts as 0. Recorded by the scheduler thread (one writer, no lock), read by {@code /metrics} and the
 * perf run (synchronized; the recorder's intervals accumulate here).
 */
public final class SyncLag {
    private static final long MAX_MICROS = 60_000_000L;

    private final SingleWriterRecorder recorder = new SingleWriterRecorder(MAX_MICROS, 3);
    private final Histogram total = new Histogram(MAX_MICROS, 3);
    private Histogram interval;

    SyncLag() {
    }

    /** Scheduler thread: a booking sent at {@code sentMicros} (epoch µs) was applied now. */
    void record(long sentMicros, long nowMicros) {
        recorder.recordValue(Math.min(MAX_MICROS, Math.max(0, nowMicros - sentMicros)));
    }

    /** Everything recorded so far (a copy). Any thread. */
    public synchronized Histogram snapshot() {
        interval = recorder.getIntervalHistogram(interval);
        total.add(interval);
        return total.copy();
    }
}
