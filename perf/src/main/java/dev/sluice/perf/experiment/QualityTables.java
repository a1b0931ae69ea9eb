package dev.sluice.perf.experiment;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/** Prints a {@link QualityReport} as Markdown: the setting, then one table per measurement with its definitions. */
public final class QualityTables {
    private QualityTables() {
    }

    /** The whole report. */
    public static void print(QualityReport r, PrintStream out) {
        SchedulingQualityExperiment.Settings s = r.settings();
        out.printf(Locale.ROOT, "Simulated fleet on a virtual clock: %d workers (mocker defaults: 16,384 KV blocks of"
                + " 64 tokens, max_num_seqs 256, max_num_batched_tokens 8192), seed %d; single-request sessions of"
                + " random text (no prefix-cache hits, so a request's scheduling cost is its prompt length).%n%n",
            s.workers(), s.seed());
        out.println("| family | quantum | arrivals | mean prompt | mean answer |");
        out.println("| --- | ---: | ---: | ---: | ---: |");
        double shares = 0;
        for (QualityClass c : s.classes()) {
            shares += c.requestShare();
        }
        for (QualityClass c : s.classes()) {
            out.printf(Locale.ROOT, "| %s | %d | %.0f%% | %d | %d |%n", c.name(), c.quantum(),
                100 * c.requestShare() / shares, c.promptTokens(), c.answerTokens());
        }
        out.printf(Locale.ROOT, "%nThe queued policy (router-policy YAML, loaded like any policy file; the unqueued"
            + " one is the same classes and quanta without threshold, limit and classifier):%n%n```yaml%n%s```%n%n",
            s.policy().yaml(s.classes(), true));
        out.printf(Locale.ROOT, "**Capacity**: %.1f requests/s, the completion rate of the unqueued fleet offered"
                + " %.1f/s (%.0f s window, first %.0f s left out). Loads below are percentages of it.%n%n",
            r.capacityPerSecond(), r.calibrationRate(), s.windowNs() / 1e9, s.warmupNs() / 1e9);
        shares(r, out);
        deadlines(r, out);
        ramp(r, out);
        out.printf(Locale.ROOT, "Every request ended exactly once and every router ended empty: %s. Wall time %.1f"
            + " s.%n", r.balanced() ? "yes" : "NO", r.wallNs() / 1e9);
    }

    private static void shares(QualityReport r, PrintStream out) {
        SchedulingQualityExperiment.Settings s = r.settings();
        out.printf(Locale.ROOT, "### DRR service share (queued, %.0f%% of capacity offered, every family"
                + " backlogged)%n%n", s.shareLoadPercent());
        out.println("| family | quantum | configured share | achieved share (tokens) | relative error "
            + "| dispatched tokens | dispatched requests | request share |");
        out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        for (QualityReport.ShareRow row : r.shares()) {
            out.printf(Locale.ROOT, "| %s | %d | %.1f%% | %.1f%% | %.1f%% | %,d | %,d | %.1f%% |%n", row.family(),
                row.quantum(), 100 * row.configured(), 100 * row.achieved(), 100 * row.relativeError(),
                row.tokens(), row.requests(), 100 * row.requestShare());
        }
        out.printf(Locale.ROOT, "%nMax relative error %.1f%%. Shares are of the scheduling cost (the DRR charge)"
            + " dispatched from %.0f s to %.0f s.%n%n", 100 * r.maxShareError(), s.warmupNs() / 1e9,
            s.windowNs() / 1e9);
    }

    private static void deadlines(QualityReport r, PrintStream out) {
        SchedulingQualityExperiment.Settings s = r.settings();
        out.printf(Locale.ROOT, "### Deadline misses (queued, %.0f%% of capacity offered for %.0f s, due_at ="
            + " ingress + %d ms)%n%n", s.deadlineLoadPercent(), s.windowNs() / 1e9, s.policy().maxWaitMs());
        out.println("| family | arrived | queue-limit rejected | queued | expired (DeadlineExceeded) "
            + "| dispatched late | miss rate | completed | wait p50 | wait p99 |");
        out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        for (QualityReport.DeadlineRow row : r.deadlines()) {
            out.printf(Locale.ROOT, "| %s | %,d | %,d | %,d | %,d | %,d | %.1f%% | %,d | %.0f ms | %.0f ms |%n",
                row.family(), row.submitted(), row.queueRejected(), row.enqueued(), row.expired(), row.late(),
                100 * row.missRate(), row.completed(), row.waitP50Ms(), row.waitP99Ms());
        }
        out.println();
        out.println("Miss rate: (expired + dispatched late) / queued, i.e. of the requests that waited with a"
            + " deadline. Wait: ingress to dispatch, of the dispatched.");
        out.println();
    }

    private static void ramp(QualityReport r, PrintStream out) {
        SchedulingQualityExperiment.Settings s = r.settings();
        out.printf(Locale.ROOT, "### Goodput under a load ramp (%.0f s per step; TTFT objective %.0f ms)%n%n",
            s.stepNs() / 1e9, s.sloNs() / 1e6);
        out.println("| load | policy queues | offered/s | goodput/s | good | completed | rejected | ttft p50 "
            + "| ttft p99 |");
        out.println("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        List<QualityReport.RampRow> rows = r.ramp();
        int steps = s.rampPercent().length;
        for (int i = 0; i < steps; i++) {
            for (QualityReport.RampRow row : List.of(rows.get(i), rows.get(steps + i))) {
                out.printf(Locale.ROOT, "| %.0f%% | %s | %.1f | %.1f | %.1f%% | %,d | %,d | %s | %s |%n",
                    row.loadPercent(), row.queued() ? "yes" : "no", row.offeredPerSecond(), row.goodputPerSecond(),
                    row.offered() == 0 ? 0.0 : 100.0 * row.good() / row.offered(), row.completed(), row.rejected(),
                    duration(row.ttftP50Ms()), duration(row.ttftP99Ms()));
            }
        }
        out.println();
        out.printf(Locale.ROOT, "One run per variant, the steps back to back; a request counts in the step it"
            + " arrived in. Goodput: completed with TTFT ≤ %.0f ms, per second of the step; good: of the arrivals."
            + " TTFT: ingress to first token (virtual time) of those that got one. Rejected: queue limit or"
            + " deadline (429/529 at once, instead of a late answer). Clients never give up. With the policy queues"
            + " DRR serves the families by their quanta, so past 100%% the served mix leans to the shorter prompts"
            + " and completions per second can pass the capacity measured on the offered mix.%n%n", s.sloNs() / 1e6);
    }

    private static String duration(double ms) {
        return ms >= 10_000 ? String.format(Locale.ROOT, "%.1f s", ms / 1000)
            : String.format(Locale.ROOT, "%.0f ms", ms);
    }
}
