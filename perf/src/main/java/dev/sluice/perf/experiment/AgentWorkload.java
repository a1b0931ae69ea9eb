package dev.sluice.perf.experiment;

import dev.sluice.transport.simulation.SessionPlan;
import dev.sluice.transport.simulation.WorkloadRandom;
import java.util.ArrayList;
import java.util.List;

/**
 * Agentic sessions (the agent experiment's workload): sessions arrive as a Poisson process; each opens with a shared
 * system prompt (the agent's instructions and tool definitions) and a task of about {@code taskTokens}, then runs
 * {@code minTurns..maxTurns} turns: the model answers (about {@code answerTokens}, a tool call), the tool runs for
 * an exponential time of mean {@code toolGapNs}, and its output (about {@code toolTokens}) is appended as the next
 * turn's new text. Contexts grow turn by turn. Requests carry the session id (final on the last turn), as
 * ThunderAgent requires. Immutable.
 */
public record AgentWorkload(long durationNs, double sessionsPerSecond, int systemPromptTokens, int taskTokens,
                            int minTurns, int maxTurns, int toolTokens, int answerTokens, long toolGapNs, long seed) {
    public AgentWorkload {
        if (sessionsPerSecond <= 0 || minTurns < 1 || maxTurns < minTurns || taskTokens < 1 || toolTokens < 1
            || answerTokens < 1 || systemPromptTokens < 0 || toolGapNs < 0) {
            throw new IllegalArgumentException("invalid agent workload: " + this);
        }
    }

    /** The sessions, in start order. */
    public List<SessionPlan> generate() {
        WorkloadRandom random = new WorkloadRandom(seed);
        int[] system = random.tokens(systemPromptTokens);
        List<SessionPlan> sessions = new ArrayList<>();
        long meanGapNs = (long) (1e9 / sessionsPerSecond);
        long at = random.exponentialNs(meanGapNs);
        for (int n = 0; at < durationNs; n++) {
            int turns = random.between(minTurns, maxTurns);
            List<SessionPlan.Turn> plan = new ArrayList<>(turns);
            for (int t = 0; t < turns; t++) {
                plan.add(new SessionPlan.Turn(random.tokens(random.around(t == 0 ? taskTokens : toolTokens)),
                    random.around(answerTokens), t == 0 ? 0 : random.exponentialNs(toolGapNs), 0));
            }
            sessions.add(new SessionPlan("agent-" + n, at, 0, system, plan, true));
            at += random.exponentialNs(meanGapNs);
        }
        return sessions;
    }
}
