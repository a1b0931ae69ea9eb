package dev.sluice.perf.experiment;

import dev.sluice.transport.simulation.ClusterReport;
import java.io.PrintStream;
import java.util.List;

/** Prints cluster reports as one aligned table, a row per run, and the definitions of its columns. */
public final class ReportTable {
    private ReportTable() {
    }

    /** The table of {@code reports}, in order. */
    public static void print(List<ClusterReport> reports, PrintStream out) {
        out.printf("%-22s %9s %9s %8s %10s %12s %10s %9s %9s %9s %7s %6s%n", "run", "turns/min", "completed",
            "hit rate", "computed", "re-prefilled", "ttft p50", "ttft p99", "wait p99", "preempt", "cut", "wall");
        for (ClusterReport r : reports) {
            out.printf("%-22s %9.1f %9d %7.1f%% %10s %12s %8.0fms %7.0fms %7.0fms %9d %7d %5.1fs%n", r.label(),
                r.turnsPerMinute(), r.turnsCompleted(), r.prefill().hitRate() * 100,
                tokens(r.prefill().computedTokens()), tokens(r.rePrefilledTokens()), r.ttftP50Ms(), r.ttftP99Ms(),
                r.waitP99Ms(), r.prefill().preemptions(), r.cutAtEnd() + r.gaveUp() + r.rejected() + r.failed(),
                r.wallNs() / 1e9);
        }
    }

    /** What the columns mean, for the end of a command's output. */
    public static void legend(PrintStream out) {
        out.println("  turns/min     turns completed within the load window, per minute");
        out.println("  hit rate      prompt tokens the engines found in their prefix caches, of all they prefilled");
        out.println("  computed      prompt tokens the engines prefilled (uncached), re-admissions after preemption"
            + " included");
        out.println("  re-prefilled  computed minus essential: tokens an unbounded cache that kept each session where"
            + " its last turn ran would not have computed");
        out.println("  ttft, wait    router ingress to first token / to dispatch, over every turn (virtual time)");
        out.println("  preempt       decode preemptions in the engines; cut: turns rejected, abandoned or cut at the"
            + " drain limit");
    }

    private static String tokens(long n) {
        if (n >= 10_000_000) {
            return String.format("%.1fM", n / 1e6);
        }
        if (n >= 10_000) {
            return String.format("%.0fk", n / 1e3);
        }
        return Long.toString(n);
    }
}
