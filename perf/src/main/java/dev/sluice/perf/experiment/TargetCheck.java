package dev.sluice.perf.experiment;

import java.io.PrintStream;
import java.util.List;

/**
 * A target an experiment checks and whether it held, as its report prints it under the table.
 *
 * @param target what was to hold.
 * @param held   whether it did.
 * @param detail the figures behind the verdict.
 */
public record TargetCheck(String target, boolean held, String detail) {
    /** Whether every check held. */
    static boolean allHeld(List<TargetCheck> checks) {
        return checks.stream().allMatch(TargetCheck::held);
    }

    /** One line per check: {@code - held: target (detail)}, or MISSED. */
    static void print(List<TargetCheck> checks, PrintStream out) {
        for (TargetCheck c : checks) {
            out.printf("- %s: %s (%s)%n", c.held() ? "held" : "MISSED", c.target(), c.detail());
        }
    }
}
