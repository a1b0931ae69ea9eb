package dev.sluice.plugins.thunderagent;

import dev.sluice.core.api.WorkerWithDpRank;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Chooses which paused programs come back and where. Greedy resume takes the paused programs in priority order
 * (continuing reasoning programs, then new programs, then acting ones; fewest tokens first; then session id), keeps
 * the longest prefix whose total cost fits the room left on all ranks under
 * {@code pause_threshold - resume_hysteresis} (with {@code resume_packing: first_fit}, every program in that order
 * that still fits, so one large program does not hold back the small ones behind it), and packs that set largest
 * first onto the rank with the most room.
 * Forced resume brings back programs deferred for {@code resume_timeout_seconds} on the rank with the most capacity
 * left after decayed usage. Plans only: the caller applies them. Stateless.
 */
final class ResumePlanner {
    /** A program and the rank it resumes on ({@code null}: no target, when no capacity is known). */
    record Placement(Program program, WorkerWithDpRank worker) {
    }

    private ResumePlanner() {
    }

    static List<Placement> greedy(Iterable<Program> programs, CapacityView view, Map<WorkerWithDpRank, Double> used,
                                  ThunderAgentConfig config) {
        double ceiling = Math.max(config.pauseThreshold() - config.resumeHysteresis(), 0);
        long buffer = config.bufferPerProgram();
        TreeMap<WorkerWithDpRank, Double> room = new TreeMap<>();
        double total = 0;
        for (Map.Entry<WorkerWithDpRank, Long> worker : view.capacities().entrySet()) {
            double available = worker.getValue() * ceiling - used.getOrDefault(worker.getKey(), 0.0);
            if (available > buffer) {
                room.put(worker.getKey(), available);
                total += available;
            }
        }
        List<Program> paused = new ArrayList<>();
        for (Program program : programs) {
            if (program.paused) {
                paused.add(program);
            }
        }
        if (room.isEmpty() || paused.isEmpty()) {
            return List.of();
        }
        paused.sort(Comparator.comparingInt(ResumePlanner::group)
            .thenComparingDouble(p -> p.weightedTokens(config)).thenComparing(p -> p.sessionId));
        List<Program> chosen = new ArrayList<>();
        double cumulative = 0;
        for (Program program : paused) {
            if (cumulative + program.usage(config) <= total) {
                cumulative += program.usage(config);
                chosen.add(program);
            } else if (!config.resumeFirstFit()) {
                break;
            }
        }
        chosen.sort(Comparator.comparingDouble((Program p) -> p.usage(config)).reversed());
        List<Placement> placements = new ArrayList<>();
        for (Program program : chosen) {
            WorkerWithDpRank best = roomiest(room, program, program.usage(config));
            if (best != null) {
                double left = room.get(best) - program.usage(config);
                if (left > buffer) {
                    room.put(best, left);
                } else {
                    room.remove(best);
                }
                placements.add(new Placement(program, best));
            }
        }
        return placements;
    }

    /** 0: continuing program mid-turn; 1: new program; 2: continuing program between turns. */
    private static int group(Program program) {
        if (program.stepCount <= 1) {
            return 1;
        }
        return program.acting() ? 2 : 0;
    }

    private static WorkerWithDpRank roomiest(Map<WorkerWithDpRank, Double> room, Program program, double cost) {
        WorkerWithDpRank best = null;
        for (Map.Entry<WorkerWithDpRank, Double> worker : room.entrySet()) {
            boolean allowed = program.pinnedWorker == null || program.pinnedWorker.equals(worker.getKey());
            if (allowed && worker.getValue() >= cost && (best == null || worker.getValue() > room.get(best))) {
                best = worker.getKey();
            }
        }
        return best;
    }

    static List<Placement> forced(Iterable<Program> programs, CapacityView view,
                                  Map<WorkerWithDpRank, Double> decayedUsed, ThunderAgentConfig config, long nowNs) {
        List<Placement> placements = new ArrayList<>();
        Map<WorkerWithDpRank, Double> used = new TreeMap<>(decayedUsed);
        for (Program program : programs) {
            if (!program.paused || program.deferredSinceNs == Program.NONE
                || nowNs - program.deferredSinceNs < config.resumeTimeoutNs()) {
                continue;
            }
            WorkerWithDpRank target = mostFree(view, used, program.pinnedWorker);
            if (target == null && !(view.anyLive() && (program.pinnedWorker == null
                || view.isLive(program.pinnedWorker)))) {
                continue;
            }
            if (target != null) {
                used.merge(target, program.usage(config), Double::sum);
            }
            placements.add(new Placement(program, target));
        }
        return placements;
    }

    private static WorkerWithDpRank mostFree(CapacityView view, Map<WorkerWithDpRank, Double> used,
                                             WorkerWithDpRank pin) {
        WorkerWithDpRank best = null;
        double bestFree = 0;
        for (Map.Entry<WorkerWithDpRank, Long> worker : view.capacities().entrySet()) {
            if (pin != null && !pin.equals(worker.getKey())) {
                continue;
            }
            double free = worker.getValue() - used.getOrDefault(worker.getKey(), 0.0);
            if (best == null || free > bestFree) {
                best = worker.getKey();
                bestFree = free;
            }
        }
        return best;
    }
}
