package dev.sluice.plugins.thunderagent;

import dev.sluice.core.api.WorkerWithDpRank;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Pauses programs at tool boundaries until every rank is safe. For each rank above {@code pause_threshold} of its
 * capacity: pause its acting programs, smallest first (ties keep program order), until usage is at most
 * {@code pause_target}; if that is not enough, mark its reasoning programs so that they pause when their running
 * turn completes: all of them (Dynamo), or with {@code pause_marking: enough} the largest first until the usage left
 * unmarked is at most the target, so a rank slightly over does not empty itself at the next tool boundaries.
 * Pausing is logical: nothing running is preempted. In paper mode ({@code decayInPauses}) usage is
 * the decayed one, an acting program charging {@code 2^(-idle/tau)} of its tokens. Stateless.
 */
final class PausePlanner {
    private PausePlanner() {
    }

    /** Returns true when a program was paused or newly marked. */
    static boolean pauseUntilSafe(Iterable<Program> programs, CapacityView view, Map<WorkerWithDpRank, Double> used,
                                  ThunderAgentConfig config, long nowNs) {
        boolean changed = false;
        for (Map.Entry<WorkerWithDpRank, Long> worker : view.capacities().entrySet()) {
            double capacity = worker.getValue();
            double usage = used.getOrDefault(worker.getKey(), 0.0);
            if (usage > capacity * config.pauseThreshold()) {
                changed |= drain(programs, worker.getKey(), usage, capacity * config.pauseTarget(), config,
                    nowNs);
            }
        }
        return changed;
    }

    private static boolean drain(Iterable<Program> programs, WorkerWithDpRank worker, double usage, double target,
                                 ThunderAgentConfig config, long nowNs) {
        List<Program> acting = new ArrayList<>();
        List<Program> reasoning = new ArrayList<>();
        for (Program program : programs) {
            if (!program.paused && !program.markedForPause && worker.equals(program.assignedWorker)) {
                (program.acting() ? acting : reasoning).add(program);
            }
        }
        // A stable sort: equal candidates keep program order.
        acting.sort(Comparator.comparingDouble(p -> p.weightedTokens(config)));
        boolean changed = false;
        for (Program program : acting) {
            if (usage <= target) {
                break;
            }
            usage -= config.decayInPauses() ? program.decayedUsage(config, nowNs) : program.usage(config);
            program.paused = true;
            program.assignedWorker = null;
            changed = true;
        }
        if (usage > target && config.markEnough()) {
            reasoning.sort(Comparator.comparingDouble((Program p) -> p.weightedTokens(config)).reversed());
        }
        for (Program program : reasoning) {
            if (usage <= target) {
                break;
            }
            program.markedForPause = true;
            changed = true;
            if (config.markEnough()) {
                usage -= program.usage(config);
            }
        }
        return changed;
    }
}
