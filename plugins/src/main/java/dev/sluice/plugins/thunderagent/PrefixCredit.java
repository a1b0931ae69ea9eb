package dev.sluice.plugins.thunderagent;

import dev.sluice.core.api.KvInUseView;
import dev.sluice.core.api.WorkerWithDpRank;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The shared-prefix credit ({@code shared_prefix_budget}, after the ThunderAgent paper): ThunderAgent charges each
 * program all its tokens, so a prefix that several programs share on a rank (the system prompt of every coding
 * agent) is charged once per program although the engine holds it once. The credit of a rank is the tokens of its
 * dispatched reasoning programs (prompt tokens of a turn whose {@code Sent} arrived, so the router booked them)
 * beyond the KV the router sees in use on it, never negative; the rank's usage is reduced by it. Acting programs and
 * turns not yet sent get no credit: their KV is not counted in use (cached and evictable, or not yet booked), so
 * there is nothing to compare them with. A rank without a figure gets no credit. Immutable.
 *
 * <p>Used on the scheduler thread only (the view is read there).
 */
final class PrefixCredit {
    /** No credit: {@code shared_prefix_budget: false}. */
    static final PrefixCredit NONE = new PrefixCredit(null, 1);

    private final KvInUseView kvInUse;
    private final int blockSize;

    PrefixCredit(KvInUseView kvInUse, int blockSize) {
        this.kvInUse = kvInUse;
        this.blockSize = blockSize;
    }

    /** Reduces each rank's usage in {@code used} by its credit. */
    void apply(Map<WorkerWithDpRank, Double> used, Iterable<Program> programs) {
        if (kvInUse == null) {
            return;
        }
        Map<WorkerWithDpRank, Long> running = new TreeMap<>();
        for (Program program : programs) {
            if (!program.paused && program.assignedWorker != null && !program.acting() && program.sent) {
                running.merge(program.assignedWorker, program.tokenTotal, Long::sum);
            }
        }
        for (Map.Entry<WorkerWithDpRank, Long> rank : running.entrySet()) {
            OptionalLong blocks = kvInUse.usedKvBlocks(rank.getKey());
            if (blocks.isPresent()) {
                long credit = Math.max(0, rank.getValue() - blocks.getAsLong() * blockSize);
                used.computeIfPresent(rank.getKey(), (worker, usage) -> usage - credit);
            }
        }
    }
}
