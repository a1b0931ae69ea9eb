package dev.sluice.perf.experiment;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The figures of {@link PreemptionExperiment} and {@link ReloadExperiment}: one row per run and policy family,
 * printed as a Markdown table with the targets. Immutable.
 *
 * @param title  the table's title.
 * @param detail what the runs share (capacity, loads).
 * @param rows   the rows, run by run.
 * @param checks the targets and whether each held.
 */
public record FlowReport(String title, String detail, List<Row> rows, List<TargetCheck> checks) {
    /**
     * One family in one run.
     *
     * @param run       the run's name.
     * @param family    the policy family its requests named.
     * @param arrivals  requests that arrived (retries included).
     * @param retries   of those, a preempted request sent again.
     * @param completed requests completed.
     * @param preempted requests preempted.
     * @param lost      requests not completed: rejected, aborted for another cause, or cut at the run's end.
     * @param waitP50Ms queue wait (ingress to dispatch) of the requests dispatched in the service window, median.
     * @param waitP99Ms the same, 99th percentile.
     * @param ttftP50Ms time to first token of the requests arriving in the service window, median.
     * @param ttftP99Ms the same, 99th percentile.
     */
    public record Row(String run, String family, long arrivals, long retries, long completed, long preempted,
                      long lost, double waitP50Ms, double waitP99Ms, double ttftP50Ms, double ttftP99Ms) {
    }

    public FlowReport {
        rows = List.copyOf(rows);
        checks = List.copyOf(checks);
    }

    public boolean held() {
        return TargetCheck.allHeld(checks);
    }

    /** The first {@code count} families' rows of one run, from the observer. */
    static List<Row> rows(String run, List<String> families, FlowObserver o, int count) {
        List<Row> rows = new ArrayList<>();
        for (int f = 0; f < count; f++) {
            FlowObserver.Family x = o.figures[f];
            rows.add(new Row(run, families.get(f), x.arrivals, x.retries, x.completed, x.preempted, x.lost,
                FlowObserver.ms(x.waitUs, 50), FlowObserver.ms(x.waitUs, 99), FlowObserver.ms(x.ttftUs, 50),
                FlowObserver.ms(x.ttftUs, 99)));
        }
        return rows;
    }

    static Row find(List<Row> rows, String run, String family) {
        for (Row r : rows) {
            if (r.run().equals(run) && r.family().equals(family)) {
                return r;
            }
        }
        throw new IllegalStateException("no row " + run + "/" + family);
    }

    /** The Markdown table, then the targets. */
    public void printTable(PrintStream out) {
        out.printf("%s (%s)%n%n", title, detail);
        out.println("| run | family | arrivals | retries | completed | preempted | not completed | wait p50 ms"
            + " | wait p99 ms | TTFT p50 ms | TTFT p99 ms |");
        out.println("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        for (Row r : rows) {
            out.printf(Locale.ROOT, "| %s | %s | %d | %d | %d | %d | %d | %.1f | %.1f | %.1f | %.1f |%n", r.run(),
                r.family(), r.arrivals(), r.retries(), r.completed(), r.preempted(), r.lost(), r.waitP50Ms(),
                r.waitP99Ms(), r.ttftP50Ms(), r.ttftP99Ms());
        }
        out.println();
        TargetCheck.print(checks, out);
    }
}
