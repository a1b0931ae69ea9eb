package dev.sluice.transport.simulation;

import dev.sluice.core.router.RouterStatistics;
import dev.sluice.transport.engine.sim.PrefillCounters;
import org.HdrHistogram.Histogram;

/**
 * The counters and latency histograms of one run, filled by the harness on the simulation thread. Latencies are
 * recorded in microseconds of virtual time, up to an hour, with 3 significant digits. Not thread-safe.
 */
final class ClusterMetrics {
    /** How a turn ended. */
    enum Outcome { COMPLETED, REJECTED, GAVE_UP, CUT_AT_END, FAILED, PREEMPTED }

    private final Histogram ttftUs = new Histogram(3_600_000_000L, 3);
    private final Histogram waitUs = new Histogram(3_600_000_000L, 3);
    private final long windowNs;
    long sessions;
    long sessionsFinished;
    long turnsSubmitted;
    long turnsCompleted;
    long turnsInWindow;
    long rejected;
    long gaveUp;
    long cutAtEnd;
    long failed;
    long preempted;
    long duplicateEnds;
    long essentialTokens;
    long lastEndNs;

    ClusterMetrics(long windowNs) {
        this.windowNs = windowNs;
    }

    void firstToken(long ns) {
        ttftUs.recordValue(Math.min(ttftUs.getHighestTrackableValue(), Math.max(0, ns / 1000)));
    }

    void dispatched(long waitNs, long essential) {
        waitUs.recordValue(Math.min(waitUs.getHighestTrackableValue(), Math.max(0, waitNs / 1000)));
        essentialTokens += essential;
    }

    void ended(Outcome outcome, long nowNs) {
        lastEndNs = Math.max(lastEndNs, nowNs);
        switch (outcome) {
            case COMPLETED -> {
                turnsCompleted++;
                if (nowNs <= windowNs) {
                    turnsInWindow++;
                }
            }
            case REJECTED -> rejected++;
            case GAVE_UP -> gaveUp++;
            case CUT_AT_END -> cutAtEnd++;
            case FAILED -> failed++;
            case PREEMPTED -> preempted++;
        }
    }

    ClusterReport report(String label, PrefillCounters prefill, RouterStatistics router, long wallNs) {
        return new ClusterReport(label, windowNs, lastEndNs, sessions, sessionsFinished, turnsSubmitted,
            turnsCompleted, turnsInWindow, rejected, gaveUp, cutAtEnd, failed, duplicateEnds,
            ms(ttftUs, 50), ms(ttftUs, 99), ms(waitUs, 50), ms(waitUs, 99), prefill, essentialTokens, router, wallNs);
    }

    private static double ms(Histogram us, double percentile) {
        return us.getTotalCount() == 0 ? 0.0 : us.getValueAtPercentile(percentile) / 1000.0;
    }
}
