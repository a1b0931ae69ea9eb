package dev.sluice.plugins.thunderagent;

import dev.sluice.core.api.WorkerWithDpRank;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Everything a ThunderAgent classifier tracks: programs by session (in creation order, which breaks ties between
 * equal pause candidates), requests by id, each session's queue, and the global arrival order of waiting requests.
 * The arrival order keeps tombstones of released and cancelled requests and is compacted once it holds more than
 * twice the waiting requests plus 256, so releasing a large backlog costs amortized O(1) per request.
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
final class ThunderState {
    private static final int COMPACT_SLACK = 256;

    final Map<String, Program> programs = new LinkedHashMap<>();
    final Map<String, PendingRequest> requests = new HashMap<>();
    final Map<String, SessionQueue> sessions = new HashMap<>();
    private final PrefixCredit credit;
    private List<PendingRequest> arrivals = new ArrayList<>();
    private int waiting;

    /** State without the shared-prefix credit. */
    ThunderState() {
        this(PrefixCredit.NONE);
    }

    ThunderState(PrefixCredit credit) {
        this.credit = credit;
    }

    /** Records a request that is left waiting, in arrival order. */
    void addArrival(PendingRequest request) {
        arrivals.add(request);
        waiting++;
    }

    /** A request counted by {@link #addArrival} stopped waiting (released or gone). */
    void leftWaiting() {
        waiting--;
        if (arrivals.size() > 2 * waiting + COMPACT_SLACK) {
            compact();
        }
    }

    /** The arrival order now (a copy): tombstones included. */
    List<PendingRequest> arrivalsSnapshot() {
        return new ArrayList<>(arrivals);
    }

    int arrivalOrderLength() {
        return arrivals.size();
    }

    int waitingCount() {
        return waiting;
    }

    void compact() {
        List<PendingRequest> kept = new ArrayList<>(waiting);
        for (PendingRequest request : arrivals) {
            if (request.waiting()) {
                kept.add(request);
            }
        }
        arrivals = kept;
    }

    boolean isEmpty() {
        return programs.isEmpty() && requests.isEmpty();
    }

    boolean anyPaused() {
        for (Program program : programs.values()) {
            if (program.paused) {
                return true;
            }
        }
        return false;
    }

    /** True when the session has no running or waiting request. */
    boolean idle(String sessionId) {
        SessionQueue queue = sessions.get(sessionId);
        return queue == null || queue.isEmpty();
    }

    /**
     * Normal usage per rank: over active, assigned programs, current tokens (weighted while acting) plus the buffer,
     * less the shared-prefix credit when {@code shared_prefix_budget} is on.
     */
    Map<WorkerWithDpRank, Double> usage(ThunderAgentConfig config) {
        Map<WorkerWithDpRank, Double> used = new TreeMap<>();
        for (Program program : programs.values()) {
            if (!program.paused && program.assignedWorker != null) {
                used.merge(program.assignedWorker, program.usage(config), Double::sum);
            }
        }
        credit.apply(used, programs.values());
        return used;
    }

    /** Usage as {@link #usage} with acting programs decayed by idle time: for placing forced resumes. */
    Map<WorkerWithDpRank, Double> decayedUsage(ThunderAgentConfig config, long nowNs) {
        Map<WorkerWithDpRank, Double> used = new TreeMap<>();
        for (Program program : programs.values()) {
            if (!program.paused && program.assignedWorker != null) {
                used.merge(program.assignedWorker, program.decayedUsage(config, nowNs), Double::sum);
            }
        }
        credit.apply(used, programs.values());
        return used;
    }

    /**
     * Forgets the idle retained program that has been acting longest (no running or waiting request), to make room
     * for a new session at the tracking limit. Returns false when every program is busy.
     */
    boolean evictOldestIdle() {
        Program oldest = null;
        for (Program program : programs.values()) {
            if (program.acting() && idle(program.sessionId)
                && (oldest == null || program.actingSinceNs < oldest.actingSinceNs)) {
                oldest = program;
            }
        }
        if (oldest == null) {
            return false;
        }
        programs.remove(oldest.sessionId);
        return true;
    }

    /** Counts for the DEBUG summary and for tests. */
    Telemetry telemetry() {
        int paused = 0;
        int marked = 0;
        for (Program program : programs.values()) {
            paused += program.paused ? 1 : 0;
            marked += program.markedForPause ? 1 : 0;
        }
        return new Telemetry(programs.size(), programs.size() - paused, paused, marked, waiting, requests.size());
    }

    /** A summary of the state. */
    record Telemetry(int programs, int active, int paused, int markedForPause, int waitingRequests,
                     int trackedRequests) {
    }
}
