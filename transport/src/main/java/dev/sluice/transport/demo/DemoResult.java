package dev.sluice.transport.demo;

import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.router.RouterStatistics;
import dev.sluice.transport.metrics.RouterMetrics;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the run did: per-class rows, totals, the accounting check and the timeline, joined from the clients'
 * outcomes and the router's decisions by request id once the frontend has closed. Immutable once built.
 *
 * @param configuration label to value, in print order.
 * @param wallNs        from the first send to the last call's end.
 * @param hitRate       the engines' mean prefix-cache hit rate (share of prompt tokens served from cache).
 * @param accounting    one line saying how every request ended.
 * @param balanced      true when every request ended exactly once and both sides agree.
 */
record DemoResult(Map<String, String> configuration, List<ClassRow> classes, ClassRow total, RouterStatistics stats,
                  long wallNs, double hitRate, long preemptions, Timeline timeline, String accounting,
                  boolean balanced) {

    /** Joins the two sides; call after the frontend has closed. */
    static DemoResult collect(Map<String, String> configuration, List<Call> sent, ClientTally clients,
                              ClassTally router, RouterStatistics stats, RouterMetrics metrics,
                              PolicyProfile profile, long wallNs, double hitRate, long preemptions,
                              Timeline timeline) {
        List<ClassRow> rows = new ArrayList<>();
        for (int c = 0; c < profile.classes().size(); c++) {
            rows.add(new ClassRow(profile.classes().get(c).name()));
            rows.get(c).addQueueWaitMicros(metrics.queueWaitMicros(c));
        }
        ClassRow unknown = new ClassRow("(never reached the router)");
        long mismatched = 0;
        long routerCompleted = 0;
        long routerRejected = 0;
        long routerAborted = 0;
        for (Call call : sent) {
            ClientTally.Outcome outcome = clients.outcome(call.requestId());
            ClassTally.Trace trace = router.trace(call.requestId());
            ClassRow row = trace == null ? unknown : rows.get(trace.classIndex);
            row.sent++;
            if (trace != null) {
                row.enqueued += trace.enqueued ? 1 : 0;
                row.deferred += trace.deferred ? 1 : 0;
                row.parked += trace.parked ? 1 : 0;
                routerCompleted += trace.terminal == ClientTally.Kind.COMPLETED ? 1 : 0;
                routerRejected += trace.terminal == ClientTally.Kind.REJECTED ? 1 : 0;
                routerAborted += trace.terminal == ClientTally.Kind.LEFT ? 1 : 0;
            }
            if (outcome == null || !agree(outcome, trace)) {
                mismatched++;
            }
            if (outcome != null) {
                count(row, outcome);
            }
        }
        if (unknown.sent > 0) {
            rows.add(unknown);
        }
        ClassRow total = new ClassRow("all");
        rows.forEach(row -> row.addInto(total));
        boolean balanced = mismatched == 0 && clients.duplicates.get() == 0 && stats.live() == 0
            && clients.ended() == sent.size() && router.size() == sent.size()
            && stats.completed() == routerCompleted && stats.aborted() == routerAborted
            && stats.rejected() + router.refused.get() == routerRejected;
        String accounting = String.format("every request ended exactly once: %s (clients: %d sent = %d completed +"
                + " %d rejected + %d left + %d failed; router: %d completed + %d rejected + %d aborted, %d live;"
                + " %d disagree)", balanced ? "yes" : "NO", sent.size(), clients.completed.get(),
            clients.rejected.get(), clients.left.get(), clients.failed.get(), stats.completed(),
            stats.rejected() + router.refused.get(), stats.aborted(), stats.live(), mismatched);
        return new DemoResult(new LinkedHashMap<>(configuration), rows, total, stats, wallNs, hitRate, preemptions,
            timeline, accounting, balanced);
    }

    /**
     * The client and the router saw the same end: completed is completed, a rejection has the router's reason, and
     * a client that left or failed ended in the router exactly once, however (a response already written when the
     * client left still completes there).
     */
    private static boolean agree(ClientTally.Outcome outcome, ClassTally.Trace trace) {
        if (trace == null || trace.terminals != 1) {
            return false;
        }
        return switch (outcome.kind()) {
            case COMPLETED -> trace.terminal == ClientTally.Kind.COMPLETED;
            case REJECTED -> trace.terminal == ClientTally.Kind.REJECTED && trace.reason.equals(outcome.reason());
            case LEFT, FAILED -> true;
        };
    }

    private static void count(ClassRow row, ClientTally.Outcome outcome) {
        switch (outcome.kind()) {
            case COMPLETED -> row.completed++;
            case REJECTED -> row.reject(outcome.reason(), outcome.status());
            case LEFT -> row.left++;
            case FAILED -> {
                row.failed++;
                row.failures.merge(outcome.reason(), 1L, Long::sum);
            }
        }
        if (outcome.ttftNs() >= 0) {
            row.ttftMs.recordValue(Math.min(3_600_000L, outcome.ttftNs() / 1_000_000L));
        }
    }

    double throughput() {
        return total.completed / Math.max(1e-9, wallNs / 1e9);
    }
}
