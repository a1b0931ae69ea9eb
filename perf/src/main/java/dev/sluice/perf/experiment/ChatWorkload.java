package dev.sluice.perf.experiment;

import dev.sluice.transport.simulation.SessionPlan;
import dev.sluice.transport.simulation.WorkloadRandom;
import java.util.ArrayList;
import java.util.List;

/**
 * Chats that share a few long system prompts (the prefix-cache experiment's workload): conversations arrive as a
 * Poisson process, each opens with one of {@code systemPrompts} prompts of {@code systemPromptTokens} tokens and runs
 * {@code minTurns..maxTurns} turns of about {@code userTokens} new tokens, an answer of about
 * {@code answerTokens}, and a think time of mean {@code thinkNs} between turns. No session headers: placement is
 * left to the worker selector. Immutable.
 */
public record ChatWorkload(long durationNs, double sessionsPerSecond, int systemPrompts, int systemPromptTokens,
                           int minTurns, int maxTurns, int userTokens, int answerTokens, long thinkNs, long seed) {
    public ChatWorkload {
        if (sessionsPerSecond <= 0 || systemPrompts < 1 || minTurns < 1 || maxTurns < minTurns || userTokens < 1
            || answerTokens < 1 || systemPromptTokens < 0 || thinkNs < 0) {
            throw new IllegalArgumentException("invalid chat workload: " + this);
        }
    }

    /** The sessions, in start order. */
    public List<SessionPlan> generate() {
        WorkloadRandom random = new WorkloadRandom(seed);
        int[][] prompts = new int[systemPrompts][];
        for (int i = 0; i < systemPrompts; i++) {
            prompts[i] = random.tokens(systemPromptTokens);
        }
        List<SessionPlan> sessions = new ArrayList<>();
        long meanGapNs = (long) (1e9 / sessionsPerSecond);
        long at = random.exponentialNs(meanGapNs);
        for (int n = 0; at < durationNs; n++) {
            int prompt = random.index(systemPrompts);
            int turns = random.between(minTurns, maxTurns);
            List<SessionPlan.Turn> plan = new ArrayList<>(turns);
            for (int t = 0; t < turns; t++) {
                plan.add(new SessionPlan.Turn(random.tokens(random.around(userTokens)), random.around(answerTokens),
                    t == 0 ? 0 : random.exponentialNs(thinkNs), 0));
            }
            sessions.add(new SessionPlan("chat-" + n, at, prompt, prompts[prompt], plan, false));
            at += random.exponentialNs(meanGapNs);
        }
        return sessions;
    }
}
