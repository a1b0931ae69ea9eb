package dev.sluice.plugins.thunderagent;

import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.RequestProgress;
import dev.sluice.core.api.Wakeup;
import dev.sluice.core.api.WorkerWithDpRank;

/**
 * One tracked request of a session: waiting for its turn (parked, no thread) or released to the router. It keeps
 * what an abort needs to undo its turn: the program as it was before, or the fact that it created the program.
 * Each registration is its own object, so cleanup for an old lifecycle never touches a new one with the same id.
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
final class PendingRequest {
    enum Phase {
        WAITING,
        RELEASED
    }

    final String requestId;
    final String sessionId;
    final long inputTokens;
    final RequestProgress progress;
    final boolean sessionFinal;
    final WorkerWithDpRank pinnedWorker;
    Phase phase = Phase.WAITING;
    /** True once this request started its program's turn (so an abort must roll it back). */
    boolean stepBegun;
    /** True when this request created its program. */
    boolean beganProgram;
    /** The program this request's turn runs in, once begun. */
    Program program;
    /** The program before this turn, to restore on abort; {@code null} when the request created it. */
    Program prior;
    WorkerWithDpRank placementTarget;
    /** The host's request until release (the target is set on it before it goes); dropped then. */
    ClassifyRequest hostRequest;
    /** The wake-up of the parked request, or {@code null} while {@code classify} has not returned yet. */
    Wakeup wakeup;
    /** True once the request left (cancelled, aborted, or its wake-up was refused). */
    boolean ended;

    PendingRequest(ClassifyRequest request) {
        this.requestId = request.requestId();
        this.sessionId = request.sessionContext().sessionId();
        this.inputTokens = request.inputTokens();
        this.progress = request.progress();
        this.sessionFinal = request.sessionContext().isFinal();
        this.pinnedWorker = request.pinnedWorker();
    }

    boolean waiting() {
        return phase == Phase.WAITING && !ended;
    }

    @Override
    public String toString() {
        return "PendingRequest[" + requestId + ", session=" + sessionId + ", " + phase + (ended ? ", ended" : "")
            + ", target=" + placementTarget + "]";
    }
}
