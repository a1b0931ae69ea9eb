package dev.sluice.plugins.thunderagent;

import dev.sluice.core.api.RequestProgress;
import dev.sluice.core.api.WorkerWithDpRank;

/**
 * One agent program (a session) as ThunderAgent accounts it: whether a turn is running ({@code REASONING}) or the
 * agent is working between turns ({@code ACTING}), whether it is paused, the worker holding its KV working set and
 * how many tokens that set is.
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
final class Program {
    /** No time recorded. */
    static final long NONE = Long.MIN_VALUE;

    enum Status {
        REASONING,
        ACTING
    }

    final String sessionId;
    Status status = Status.REASONING;
    boolean paused;
    WorkerWithDpRank assignedWorker;
    long tokenTotal;
    /** The live context count of the running turn, or {@code null} between turns. */
    RequestProgress progress;
    int stepCount = 1;
    boolean markedForPause;
    long actingSinceNs = NONE;
    long deferredSinceNs = NONE;
    /** The hard pin of the turn being admitted, or {@code null}: placement may use no other worker. */
    WorkerWithDpRank pinnedWorker;
    /** True once the running turn's {@code Sent} arrived: the router has booked its blocks on the worker. */
    boolean sent;

    Program(String sessionId, long tokenTotal) {
        this.sessionId = sessionId;
        this.tokenTotal = tokenTotal;
    }

    boolean acting() {
        return status == Status.ACTING;
    }

    /** Tokens of the working set now: the running turn's live context if any, else the last total. */
    long currentTokens() {
        return progress == null ? tokenTotal : Math.max(tokenTotal, progress.contextTokens());
    }

    /** Current tokens, weighted while acting. */
    double weightedTokens(ThunderAgentConfig config) {
        return acting() ? currentTokens() * config.actingTokenWeight() : currentTokens();
    }

    /** What this program charges its worker: weighted tokens plus the per-program buffer. */
    double usage(ThunderAgentConfig config) {
        return weightedTokens(config) + config.bufferPerProgram();
    }

    /** Usage with acting tokens decayed by idle time (half-life {@code acting_decay_tau_seconds}). */
    double decayedUsage(ThunderAgentConfig config, long nowNs) {
        if (!acting() || actingSinceNs == NONE) {
            return usage(config);
        }
        double idleSeconds = Math.max(0, nowNs - actingSinceNs) / 1e9;
        double decay = Math.pow(2, -idleSeconds / config.actingDecayTauSeconds());
        return weightedTokens(config) * decay + config.bufferPerProgram();
    }

    /** A copy of every field, kept by a turn so that an abort can restore the program as it was. */
    Program snapshot() {
        Program copy = new Program(sessionId, tokenTotal);
        copy.restore(this);
        return copy;
    }

    /** Restores every field from a {@link #snapshot()}. */
    void restore(Program from) {
        status = from.status;
        paused = from.paused;
        assignedWorker = from.assignedWorker;
        tokenTotal = from.tokenTotal;
        progress = from.progress;
        stepCount = from.stepCount;
        markedForPause = from.markedForPause;
        actingSinceNs = from.actingSinceNs;
        deferredSinceNs = from.deferredSinceNs;
        pinnedWorker = from.pinnedWorker;
        sent = from.sent;
    }

    @Override
    public String toString() {
        return "Program[" + sessionId + ", " + status + (paused ? ", paused" : "") + (markedForPause ? ", marked" : "")
            + ", worker=" + assignedWorker + ", tokens=" + currentTokens() + ", step=" + stepCount + "]";
    }
}
