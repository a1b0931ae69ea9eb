package dev.sluice.plugins.thunderagent;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The periodic pass (every {@code scheduler_interval_seconds}, on the router's scheduler thread): expire retained
 * programs, forget assignments to ranks that left, admit waiting turns in arrival order, greedy resume, forced
 * resume, pause until safe, compact the arrival order. Usage is recomputed before each step, so a step sees what the
 * previous one did (a program force-resumed in this pass can be marked for pause in the same pass).
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
final class Reconciler {
    /**
     * What one pass did.
     *
     * @param forcedResumes programs brought back because they waited {@code resume_timeout_seconds}.
     * @param changed       whether any program or request changed state.
     */
    record Report(int forcedResumes, boolean changed) {
    }

    private final ThunderState state;
    private final ThunderAgentConfig config;
    private final ProgramScheduler scheduler;

    Reconciler(ThunderState state, ThunderAgentConfig config, ProgramScheduler scheduler) {
        this.state = state;
        this.config = config;
        this.scheduler = scheduler;
    }

    Report reconcile(CapacityView view, long nowNs) {
        boolean changed = expireRetained(nowNs);
        for (Program program : state.programs.values()) {
            if (program.assignedWorker != null && !view.isLive(program.assignedWorker)) {
                program.assignedWorker = null;
                changed = true;
            }
        }
        changed |= admitWaiting(view, nowNs);
        for (ResumePlanner.Placement placement
            : ResumePlanner.greedy(state.programs.values(), view, state.usage(config), config)) {
            resume(placement);
            changed = true;
        }
        List<ResumePlanner.Placement> forced = ResumePlanner.forced(state.programs.values(), view,
            state.decayedUsage(config, nowNs), config, nowNs);
        for (ResumePlanner.Placement placement : forced) {
            resume(placement);
            changed = true;
        }
        changed |= PausePlanner.pauseUntilSafe(state.programs.values(), view,
            config.decayInPauses() ? state.decayedUsage(config, nowNs) : state.usage(config), config, nowNs);
        state.compact();
        return new Report(forced.size(), changed);
    }

    private boolean expireRetained(long nowNs) {
        boolean changed = false;
        for (Iterator<Program> it = state.programs.values().iterator(); it.hasNext(); ) {
            Program program = it.next();
            if (scheduler.expired(program, nowNs) && state.idle(program.sessionId)) {
                it.remove();
                changed = true;
            }
        }
        return changed;
    }

    private boolean admitWaiting(CapacityView view, long nowNs) {
        boolean changed = false;
        for (PendingRequest request : state.arrivalsSnapshot()) {
            SessionQueue queue = state.sessions.get(request.sessionId);
            if (request.waiting() && queue != null && queue.admissible() == request) {
                changed |= scheduler.tryAdmit(request, view, nowNs);
            }
        }
        return changed;
    }

    /** The program becomes active on the rank, and its session's waiting turn (if any) goes there. */
    private void resume(ResumePlanner.Placement placement) {
        Program program = placement.program();
        program.paused = false;
        program.deferredSinceNs = Program.NONE;
        program.assignedWorker = placement.worker();
        SessionQueue queue = state.sessions.get(program.sessionId);
        PendingRequest next = queue == null ? null : queue.admissible();
        if (next != null && next.stepBegun && next.program == program) {
            scheduler.release(next, program, placement.worker());
        }
    }

    /** The requests of the arrival order that still wait, for tests. */
    List<String> waitingInArrivalOrder() {
        List<String> ids = new ArrayList<>();
        for (PendingRequest request : state.arrivalsSnapshot()) {
            if (request.waiting()) {
                ids.add(request.requestId);
            }
        }
        return ids;
    }
}
