package dev.sluice.transport.demo;

import dev.sluice.core.audit.RequestFigures;
import dev.sluice.core.router.RouterStatistics;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the run did: per-class rows, totals, the accounting check and the timeline, joined from the clients'
 * outcomes and the router's decisions by request id once the frontend has closed. Immutable once built.
 *
 * @param configuration label to value, in print order.
 * @param figures       the router's figures per class, as {@code journal stats} computes them from the journal.
 * @param wallNs        from the first send to the last call's end.
 * @param hitRate       the engines' mean prefix-cache hit rate (share of prompt tokens served from cache).
 * @param accounting    one line saying how every request ended.
 * @param balanced      true when every request ended exactly once and both sides agree.
 */
record DemoResult(Map<String, String> configuration, List<ClassRow> classes, ClassRow total, RequestFigures figures,
                  RouterStatistics stats, long wallNs, double hitRate, long preemptions, Timeline timeline,
                  String accounting, boolean balanced) {
    /** The row of calls the router never saw (answered on the way, or the connection failed). */
    static final String NEVER_ROUTED = "(never reached the router)";

    /**
     * Joins the two sides; call after the frontend has closed. Each call counts in the class the router's figures
     * put it in ({@link RequestFigures}); calls the router never saw in a row of their own.
     */
    static DemoResult collect(Map<String, String> configuration, List<Call> sent, ClientTally clients,
                              ClassTally router, RouterStatistics stats, long wallNs, double hitRate,
                              long preemptions, Timeline timeline) {
        RequestFigures figures = router.figures();
        Map<String, ClassRow> byName = new LinkedHashMap<>();
        figures.byClass().forEach((name, classFigures) -> byName.put(name, new ClassRow(name, classFigures)));
        ClassRow unknown = new ClassRow(NEVER_ROUTED, new RequestFigures().total());
        long mismatched = 0;
        long routerCompleted = 0;
        long routerRejected = 0;
        long routerAborted = 0;
        for (Call call : sent) {
            ClientTally.Outcome outcome = clients.outcome(call.requestId());
            ClassTally.Trace trace = router.trace(call.requestId());
            ClassRow row = trace == null ? unknown : byName.get(router.className(trace));
            row.sent++;
            if (trace != null) {
                routerCompleted += trace.terminal == ClientTally.Kind.COMPLETED ? 1 : 0;
                routerRejected += trace.terminal == ClientTally.Kind.REJECTED ? 1 : 0;
                routerAborted += trace.terminal == ClientTally.Kind.LEFT ? 1 : 0;
            }
            if (outcome == null || !agree(outcome, trace)) {
                mismatched++;
            }
            if (outcome != null && outcome.kind() == ClientTally.Kind.FAILED) {
                row.failed++;
                row.failures.merge(outcome.reason(), 1L, Long::sum);
            } else if (outcome != null && trace == null && outcome.kind() == ClientTally.Kind.REJECTED) {
                row.unroutedRejections.merge(RequestFigures.reasonWithStatus(outcome.reason(), outcome.status()), 1L,
                    Long::sum);
            }
        }
        List<ClassRow> rows = new ArrayList<>(byName.values());
        if (unknown.sent > 0) {
            rows.add(unknown);
        }
        ClassRow total = new ClassRow("all", figures.total());
        rows.forEach(row -> row.addClientSideInto(total));
        boolean balanced = mismatched == 0 && clients.duplicates.get() == 0 && stats.live() == 0
            && clients.ended() == sent.size() && router.size() == sent.size()
            && stats.completed() == routerCompleted && stats.aborted() == routerAborted
            && stats.rejected() + router.refused.get() == routerRejected;
        String accounting = String.format("every request ended exactly once: %s (clients: %d sent = %d completed +"
                + " %d rejected + %d left + %d failed; router: %d completed + %d rejected + %d aborted, %d live;"
                + " %d disagree)", balanced ? "yes" : "NO", sent.size(), clients.completed.get(),
            clients.rejected.get(), clients.left.get(), clients.failed.get(), stats.completed(),
            stats.rejected() + router.refused.get(), stats.aborted(), stats.live(), mismatched);
        return new DemoResult(new LinkedHashMap<>(configuration), rows, total, figures, stats, wallNs, hitRate,
            preemptions, timeline, accounting, balanced);
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

    double throughput() {
        return total.count(RequestFigures.Outcome.COMPLETED) / Math.max(1e-9, wallNs / 1e9);
    }

    /** Rejections by {@code reason (status)} and class, the router's and those of calls that never reached it. */
    Map<String, Map<String, Long>> rejectionsByReason() {
        Map<String, Map<String, Long>> reasons = figures.rejectionsByReason();
        for (ClassRow row : classes) {
            row.unroutedRejections.forEach((reason, count) -> reasons.computeIfAbsent(reason,
                r -> new LinkedHashMap<>()).merge(row.name, count, Long::sum));
        }
        return reasons;
    }
}
