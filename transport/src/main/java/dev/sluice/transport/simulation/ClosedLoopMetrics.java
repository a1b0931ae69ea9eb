package dev.sluice.transport.simulation;

import dev.sluice.transport.engine.sim.PrefillCounters;
import org.HdrHistogram.Histogram;

/**
 * The window counters of a closed-loop run ({@link ClosedLoopReport}), filled on the simulation thread: events
 * before {@code fromNs} (the warm-up) are left out. Latencies in microseconds of virtual time, up to ten hours, 3
 * significant digits. Not thread-safe.
 */
final class ClosedLoopMetrics {
    private final Histogram turnUs = histogram();
    private final Histogram parkedUs = histogram();
    private final Histogram ttftUs = histogram();
    private final Histogram programUs = histogram();
    private final long fromNs;
    private long steps;
    private long programs;
    private long outputTokens;
    private long promptTokens;
    private long essentialTokens;
    private PrefillCounters prefillAtStart = PrefillCounters.ZERO;

    ClosedLoopMetrics(long fromNs) {
        this.fromNs = fromNs;
    }

    void windowStarted(PrefillCounters prefill) {
        prefillAtStart = prefill;
    }

    void dispatched(long nowNs, long parkedNs, long essential) {
        if (nowNs >= fromNs) {
            record(parkedUs, parkedNs);
            essentialTokens += essential;
        }
    }

    void firstToken(long nowNs, long ttftNs) {
        if (nowNs >= fromNs) {
            record(ttftUs, ttftNs);
        }
    }

    void turnCompleted(long nowNs, long latencyNs, int prompt, int output) {
        if (nowNs >= fromNs) {
            steps++;
            record(turnUs, latencyNs);
            promptTokens += prompt;
            outputTokens += output;
        }
    }

    void programFinished(long nowNs, long latencyNs) {
        if (nowNs >= fromNs) {
            programs++;
            record(programUs, latencyNs);
        }
    }

    ClosedLoopReport report(String label, int parallel, long windowNs, PrefillCounters prefillAtEnd,
                            boolean balanced, long wallNs) {
        PrefillCounters window = prefillAtEnd.minus(prefillAtStart);
        return new ClosedLoopReport(label, parallel, windowNs, steps, programs, outputTokens, promptTokens, window,
            essentialTokens, ms(turnUs, 50), ms(turnUs, 99), ms(parkedUs, 50), ms(parkedUs, 99), ms(ttftUs, 50),
            ms(ttftUs, 99), ms(programUs, 99), balanced, wallNs);
    }

    private static Histogram histogram() {
        return new Histogram(36_000_000_000L, 3);
    }

    private static void record(Histogram h, long ns) {
        h.recordValue(Math.min(h.getHighestTrackableValue(), Math.max(0, ns / 1000)));
    }

    private static double ms(Histogram us, double percentile) {
        return us.getTotalCount() == 0 ? 0.0 : us.getValueAtPercentile(percentile) / 1000.0;
    }
}
