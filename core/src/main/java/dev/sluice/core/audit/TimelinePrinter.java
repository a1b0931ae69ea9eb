package dev.sluice.core.audit;

import dev.sluice.core.journal.JournalRecord;
import java.io.PrintWriter;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Renders lifecycles as readable timelines: when the request arrived, how it was classified, how long it waited
 * and where, where it went, how it ended. Times are relative to the arrival, with the wall clock (UTC) of the
 * arrival. Cold path; stateless.
 */
public final class TimelinePrinter {
    private static final DateTimeFormatter WALL = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS")
        .withZone(ZoneOffset.UTC);

    private TimelinePrinter() {
    }

    /** The run's header line. */
    public static void printRun(JournalRun run, PrintWriter out) {
        JournalRecord.Header h = run.header();
        if (h == null) {
            out.printf("run %d (header not in the journal: older cycles were deleted)%n", run.index());
            return;
        }
        out.printf("run %d: model %s, started %s UTC, format v%d%n", run.index(), h.model(),
            WALL.format(run.wallClock(h.timeNs())), h.formatVersion());
        out.printf("  policy %s, sha256 %s%s; classifier %s; overload status %d%n", h.policySource(),
            h.fingerprint().substring(0, 16), h.fingerprintMatches() ? "" : " (DOES NOT MATCH the recorded text)",
            h.classifier(), h.overloadStatus());
    }

    public static void print(JournalRun run, Lifecycle lifecycle, PrintWriter out) {
        JournalRecord.Request r = lifecycle.request();
        long origin = r != null ? r.ingressAt() : lifecycle.records().get(0).timeNs();
        String label = r != null && r.clientRequestId() != null ? ", x-request-id " + r.clientRequestId() : "";
        out.printf("request %s (lifecycle %d%s), arrived %s UTC%n", lifecycle.requestId(), lifecycle.id(), label,
            WALL.format(run.wallClock(origin)));
        if (r != null) {
            out.printf("  %d input tokens; class header %s; tenant %s; session %s%s; strict priority %d,"
                    + " priority jump %.1f s%s%n", r.inputTokens(), orDash(r.policyClass()), orDash(r.tenant()),
                orDash(r.sessionId()), r.parentSessionId() != null ? " (parent " + r.parentSessionId() + ")" : "",
                r.strictPriority(), r.priorityJump(), r.pinnedWorker() != null ? "; pinned to " + r.pinnedWorker()
                    : "");
        }
        long waitingSince = -1;
        long queuedSince = -1;
        String queuedIn = null;
        for (JournalRecord record : lifecycle.records()) {
            String at = String.format("  %+9.3f s  ", (record.timeNs() - origin) / 1e9);
            switch (record) {
                case JournalRecord.Arrived a -> out.println(at + "arrived at the scheduler");
                case JournalRecord.Refused f -> out.println(at + "refused before admission: " + error(f.error()));
                case JournalRecord.Classified c -> {
                    String waited = waitingSince >= 0 ? " after " + ms(c.timeNs() - waitingSince)
                        + " in the classifier" : "";
                    out.println(at + "classified " + c.decision() + waited + overrides(c.overrides(), origin));
                    waitingSince = switch (c.decision()) {
                        case DEFER, PARK -> c.timeNs();
                        default -> -1;
                    };
                }
                case JournalRecord.Enqueued e -> {
                    queuedSince = e.timeNs();
                    queuedIn = e.policyClass();
                    out.println(at + "enqueued in " + e.policyClass() + (e.policyFamily() != null ? " (family "
                        + e.policyFamily() + ", bucket " + e.cacheBucket() + ")" : "") + ", cost " + e.costTokens()
                        + " tokens, cached " + e.cachedTokens() + deadline(e.overrides().dueAt(), origin));
                }
                case JournalRecord.Dispatched d -> out.println(at + "dispatched to " + d.worker() + " after waiting "
                    + ms(d.timeNs() - queuedSince) + " in " + queuedIn + " (busy workers or its turn in DRR)");
                case JournalRecord.Responding p -> out.println(at + "first response item (TTFT "
                    + ms(p.timeNs() - origin) + ")");
                case JournalRecord.Completed c -> out.println(at + "completed" + (c.contextTokens() >= 0
                    ? ", " + c.contextTokens() + " context tokens" : ""));
                case JournalRecord.Rejected x -> out.println(at + "rejected while " + stage(x.stage()) + ": "
                    + error(x.error()));
                case JournalRecord.Aborted x -> out.println(at + "aborted while " + stage(x.stage())
                    + (x.causeType() != null ? ": " + x.causeType() + ": " + x.causeMessage() : ""));
                case JournalRecord.Retried x -> out.println(at + "dispatch failed; retried with its classification");
                default -> out.println(at + record);
            }
        }
        out.println("  outcome: " + lifecycle.outcome() + " after " + ms(lifecycle.records()
            .get(lifecycle.records().size() - 1).timeNs() - origin));
    }

    private static String overrides(JournalRecord.Overrides o, long origin) {
        StringBuilder text = new StringBuilder();
        if (o.policyClass() != null) {
            text.append(", class ").append(o.policyClass());
        }
        text.append(deadline(o.dueAt(), origin));
        if (o.costOverride() > 0) {
            text.append(", cost ").append(o.costOverride());
        }
        if (o.target() != null) {
            text.append(", prefers ").append(o.target());
        }
        return text.toString();
    }

    private static String deadline(long dueAt, long origin) {
        return Lifecycle.hasDeadline(dueAt) ? ", due " + ms(dueAt - origin) + " after ingress" : "";
    }

    private static String error(JournalRecord.Error e) {
        return e.httpStatus() + " " + e.reason() + " \"" + e.publicMessage() + "\"" + (e.diagnostic() != null
            ? " [" + e.diagnostic() + "]" : "") + (e.retryAfterNanos() > 0 ? ", retry after "
            + ms(e.retryAfterNanos()) : "");
    }

    private static String stage(dev.sluice.core.host.RequestView.Stage stage) {
        return stage.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
    }

    static String ms(long ns) {
        return ns >= 10_000_000_000L ? String.format("%.1f s", ns / 1e9) : String.format("%.1f ms", ns / 1e6);
    }

    private static String orDash(String text) {
        return text == null ? "-" : text;
    }
}
