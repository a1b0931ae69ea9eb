package dev.sluice.perf.experiment;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * The figures of {@link FairnessExperiment}: one row per tenant and run, printed as a Markdown table or as JSON
 * lines (one object per row). Immutable.
 *
 * @param capacityPerSecond the fleet's completion rate (requests/s) every load is a share of.
 * @param rows              the rows, run by run.
 * @param checks            the targets and whether each held.
 */
public record FairnessReport(double capacityPerSecond, List<Row> rows, List<TargetCheck> checks) {
    /**
     * One tenant in one run.
     *
     * @param run           {@code backlogged} (every tenant offers more than an equal share), {@code light-load}
     *                      (the light tenants below it) or {@code no-heavy} (the light tenants alone).
     * @param fairness      the class's {@code tenant_fairness}; {@code vtc + preemption} adds {@code vtc:
     *                      preempt_over_served: true}.
     * @param tenant        the tenant.
     * @param offeredTokens prompt and answer tokens of its requests arriving in the service window.
     * @param servedTokens  tokens served to its requests dispatched in the window.
     * @param share         its share of the tokens served in the window.
     * @param waitP50Ms     queue wait (enqueue to dispatch), median.
     * @param waitP99Ms     queue wait, 99th percentile.
     * @param slotP99Ms     wait for the next free slot (enqueue to the next dispatch of any request), 99th
     *                      percentile: the part of the queue wait no order of the queue can remove.
     * @param ttftP99Ms     time to first token (arrival to first token), 99th percentile.
     * @param preempted     its requests preempted over the run (503 {@code preempted}, sent again after Retry-After).
     * @param lostTokens    the prompt tokens of those preempted requests: work dispatched and thrown away before a
     *                      first token (a preempted request has streamed nothing).
     * @param retries       its arrivals that were such a request sent again.
     */
    public record Row(String run, String fairness, String tenant, long offeredTokens, long servedTokens,
                      double share, double waitP50Ms, double waitP99Ms, double slotP99Ms, double ttftP99Ms,
                      long preempted, long lostTokens, long retries) {
    }

    public FairnessReport {
        rows = List.copyOf(rows);
        checks = List.copyOf(checks);
    }

    public boolean held() {
        return TargetCheck.allHeld(checks);
    }

    /** The Markdown table and the targets. */
    public void printTable(PrintStream out) {
        out.printf(Locale.ROOT, "Tenant fairness in one class (fleet capacity %.1f requests/s)%n%n",
            capacityPerSecond);
        out.println("| run | fairness | tenant | offered tokens | served tokens | share | wait p50 ms | wait p99 ms"
            + " | next slot p99 ms | TTFT p99 ms | preempted | lost tokens | retried |");
        out.println("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        for (Row r : rows) {
            out.printf(Locale.ROOT,
                "| %s | %s | %s | %d | %d | %.1f %% | %.1f | %.1f | %.1f | %.1f | %d | %d | %d |%n",
                r.run(), r.fairness(), r.tenant(), r.offeredTokens(), r.servedTokens(), 100 * r.share(),
                r.waitP50Ms(), r.waitP99Ms(), r.slotP99Ms(), r.ttftP99Ms(), r.preempted(), r.lostTokens(),
                r.retries());
        }
        out.println();
        TargetCheck.print(checks, out);
    }

    /** One JSON object per row, one per line. */
    public void printJson(PrintStream out) {
        for (Row r : rows) {
            out.printf(Locale.ROOT, "{\"run\":\"%s\",\"tenant\":\"%s\",\"fairness\":\"%s\",\"offered_tokens\":%d,"
                + "\"served_tokens\":%d,\"share\":%.4f,\"wait_p50_ms\":%.1f,\"wait_p99_ms\":%.1f,"
                + "\"next_slot_p99_ms\":%.1f,\"ttft_p99_ms\":%.1f,\"preempted\":%d,\"lost_tokens\":%d,"
                + "\"retries\":%d}%n", r.run(), r.tenant(), r.fairness(), r.offeredTokens(), r.servedTokens(),
                r.share(), r.waitP50Ms(), r.waitP99Ms(), r.slotP99Ms(), r.ttftP99Ms(), r.preempted(), r.lostTokens(),
                r.retries());
        }
    }
}
