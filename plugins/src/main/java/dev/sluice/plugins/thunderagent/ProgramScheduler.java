package dev.sluice.plugins.thunderagent;

import dev.sluice.core.api.WorkerWithDpRank;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Supplier;
import org.agrona.concurrent.NanoClock;

/**
 * Admits, releases and rolls back the turns of programs (dynamo.md 6.4 and 6.5). A turn is admitted only when it is
 * the first waiting request of an idle session; then, in order: a final turn forgets its program and goes to the
 * program's last worker; a paused program waits; without any capacity card it flows through; a continuation goes
 * to its live worker without a capacity check; a new program waits while any program is paused; otherwise it goes
 * to the least used rank that has room for its input plus the buffer, or its program is paused.
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
final class ProgramScheduler {
    private final ThunderState state;
    private final ThunderAgentConfig config;
    private final Supplier<CapacityView> capacity;
    private final NanoClock clock;

    ProgramScheduler(ThunderState state, ThunderAgentConfig config, Supplier<CapacityView> capacity,
                     NanoClock clock) {
        this.state = state;
        this.config = config;
        this.capacity = capacity;
        this.clock = clock;
    }

    /** Tries to admit the session's next request; returns true if it was released. */
    boolean tryAdmit(PendingRequest request, CapacityView view, long nowNs) {
        if (request.sessionFinal) {
            Program program = state.programs.remove(request.sessionId);
            WorkerWithDpRank last = program == null ? null : program.assignedWorker;
            return release(request, null, view.isLive(last) ? last : null);
        }
        Program program = request.stepBegun ? request.program : beginStep(request, nowNs);
        if (program.paused) {
            deferPaused(program, nowNs);
            return false;
        }
        if (!view.hasCapacity()) {
            return release(request, program, view.isLive(program.assignedWorker) ? program.assignedWorker : null);
        }
        if (program.assignedWorker != null) {
            if (view.isLive(program.assignedWorker)) {
                return release(request, program, program.assignedWorker);
            }
            program.assignedWorker = null;
        }
        // Fairness: a new session waits (paused, so resume and the timeout see it) behind paused ones.
        WorkerWithDpRank target = request.beganProgram && state.anyPaused() ? null : roomFor(request, view);
        if (target != null) {
            return release(request, program, target);
        }
        if (request.pinnedWorker != null && view.isLive(request.pinnedWorker)
            && view.capacityOf(request.pinnedWorker) < 0) {
            // A live pin without a card cannot be checked; it goes there like a cold start.
            return release(request, program, request.pinnedWorker);
        }
        program.paused = true;
        program.assignedWorker = null;
        deferPaused(program, nowNs);
        return false;
    }

    private static void deferPaused(Program program, long nowNs) {
        if (program.deferredSinceNs == Program.NONE) {
            program.deferredSinceNs = nowNs;
        }
    }

    /** The least used live rank (then the lowest) with room for the input plus the buffer; only the pin if any. */
    private WorkerWithDpRank roomFor(PendingRequest request, CapacityView view) {
        long required = request.inputTokens + config.bufferPerProgram();
        Map<WorkerWithDpRank, Double> used = state.usage(config);
        WorkerWithDpRank best = null;
        double bestUsed = 0;
        for (Map.Entry<WorkerWithDpRank, Long> worker : view.capacities().entrySet()) {
            if (request.pinnedWorker != null && !request.pinnedWorker.equals(worker.getKey())) {
                continue;
            }
            double usage = used.getOrDefault(worker.getKey(), 0.0);
            if (worker.getValue() - usage >= required && (best == null || usage < bestUsed)) {
                best = worker.getKey();
                bestUsed = usage;
            }
        }
        return best;
    }

    /** Starts the request's turn: continues its program (a fresh one if none or if it expired). */
    private Program beginStep(PendingRequest request, long nowNs) {
        Program program = state.programs.get(request.sessionId);
        if (program != null && expired(program, nowNs)) {
            state.programs.remove(request.sessionId);
            program = null;
        }
        if (program == null) {
            program = new Program(request.sessionId, request.inputTokens);
            state.programs.put(request.sessionId, program);
            request.beganProgram = true;
        } else {
            request.prior = program.snapshot();
            program.status = Program.Status.REASONING;
            if (request.inputTokens > 0) {
                program.tokenTotal = request.inputTokens;
            }
            program.stepCount++;
            program.actingSinceNs = Program.NONE;
        }
        program.progress = request.progress;
        program.pinnedWorker = request.pinnedWorker;
        program.sent = false;
        request.program = program;
        request.stepBegun = true;
        return program;
    }

    /** An idle acting program past its retention: it is forgotten, and its session's next turn starts afresh. */
    boolean expired(Program program, long nowNs) {
        return program.acting() && program.actingSinceNs != Program.NONE
            && nowNs - program.actingSinceNs >= config.sessionRetentionNs();
    }

    /**
     * Releases a request to the router with this soft target, making it its session's running request. Returns
     * false when the parked request's lifecycle already ended (its wake-up is refused): it is rolled back instead.
     */
    boolean release(PendingRequest request, Program program, WorkerWithDpRank target) {
        if (target != null && request.hostRequest != null) {
            request.hostRequest.setWorkerSelectionTarget(target);
        }
        if (request.wakeup != null) {
            if (!request.wakeup.admit()) {
                cancel(request);
                return false;
            }
            state.leftWaiting();
        }
        request.hostRequest = null;
        request.phase = PendingRequest.Phase.RELEASED;
        request.placementTarget = target;
        if (program != null) {
            program.paused = false;
            program.deferredSinceNs = Program.NONE;
            program.assignedWorker = target;
        }
        SessionQueue queue = state.sessions.get(request.sessionId);
        queue.waiting.remove(request);
        queue.current = request;
        return true;
    }

    /** Undoes a request that left: its turn is rolled back and its session moves on. Idempotent. */
    void cancel(PendingRequest request) {
        if (request.ended) {
            return;
        }
        boolean wasWaiting = request.phase == PendingRequest.Phase.WAITING;
        request.ended = true;
        request.hostRequest = null;
        state.requests.remove(request.requestId, request);
        SessionQueue queue = state.sessions.get(request.sessionId);
        if (wasWaiting) {
            queue.waiting.remove(request);
            if (request.wakeup != null) {
                state.leftWaiting();
            }
        } else if (queue.current == request) {
            queue.current = null;
        }
        if (request.stepBegun) {
            if (request.beganProgram) {
                state.programs.remove(request.sessionId, request.program);
            } else if (request.prior != null) {
                request.program.restore(request.prior);
            }
        }
        afterTerminal(request.sessionId);
    }

    /** The actual worker of a released turn: the program follows it (a selector may have chosen another). */
    void sent(PendingRequest request, WorkerWithDpRank worker) {
        if (request.phase == PendingRequest.Phase.RELEASED && request.stepBegun && !request.sessionFinal
            && state.programs.get(request.sessionId) == request.program) {
            request.program.assignedWorker = worker;
            request.program.sent = true;
        }
    }

    /** A turn completed: its program acts (works between turns) with the final context size, or pauses if marked. */
    void completed(PendingRequest request, OptionalLong contextTokens, long nowNs) {
        request.ended = true;
        state.requests.remove(request.requestId, request);
        SessionQueue queue = state.sessions.get(request.sessionId);
        if (queue.current == request) {
            queue.current = null;
        } else if (queue.waiting.remove(request) && request.wakeup != null) {
            state.leftWaiting();
        }
        Program program = request.program;
        if (request.stepBegun && !request.sessionFinal && state.programs.get(request.sessionId) == program) {
            program.status = Program.Status.ACTING;
            program.tokenTotal = contextTokens.isPresent() ? contextTokens.getAsLong() : program.currentTokens();
            program.progress = null;
            program.sent = false;
            program.actingSinceNs = nowNs;
            if (program.markedForPause) {
                program.markedForPause = false;
                program.paused = true;
                program.assignedWorker = null;
            }
        }
        afterTerminal(request.sessionId);
    }

    /** After a terminal: admit the session's next request, or drop the empty session entry. */
    private void afterTerminal(String sessionId) {
        SessionQueue queue = state.sessions.get(sessionId);
        if (queue == null) {
            return;
        }
        PendingRequest next = queue.admissible();
        if (next != null) {
            tryAdmit(next, capacity.get(), clock.nanoTime());
        }
        if (queue.isEmpty()) {
            state.sessions.remove(sessionId, queue);
        }
    }
}
