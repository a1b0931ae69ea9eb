package dev.sluice.perf.experiment;

import dev.sluice.transport.simulation.SessionPlan;
import dev.sluice.transport.simulation.WorkloadRandom;
import java.util.ArrayList;
import java.util.List;

/**
 * Coding-agent programs (SWE-agent-like), the closed-loop agent experiment's workload, every parameter here. A
 * program opens with the system prompt every program shares (instructions and tool definitions, its length drawn
 * once per seed in {@code [systemMinTokens, systemMaxTokens]}) and a task, then runs {@code minTurns..maxTurns}
 * turns: the model answers ({@code outputMin..outputMax} tokens, a tool call), the tool runs for a lognormal time of
 * median {@code toolMedianNs} and shape {@code toolSigma}, and its output ({@code toolMin..toolMax} tokens) is
 * appended as the next turn's new text. Draws are uniform unless said otherwise. The context grows every turn, to
 * about 100k tokens over 40 turns. Program {@code i} is a function of the seed and {@code i} alone, so every
 * policy of a comparison plays the same programs in the same order. Requests carry the program id as their session
 * (final on the last turn), as ThunderAgent requires. Immutable.
 *
 * @param systemMinTokens shortest shared system prompt.
 * @param systemMaxTokens longest shared system prompt.
 * @param taskMinTokens   shortest task (the first turn's text after the system prompt).
 * @param taskMaxTokens   longest task.
 * @param minTurns        fewest turns (LLM calls) of a program.
 * @param maxTurns        most turns.
 * @param toolMinTokens   fewest tokens a tool returns.
 * @param toolMaxTokens   most tokens a tool returns.
 * @param outputMin       shortest answer.
 * @param outputMax       longest answer.
 * @param toolMedianNs    median tool time.
 * @param toolSigma       lognormal shape of tool times: 0.35 puts the middle two thirds within 1-3 s of a 2 s
 *                        median; 1.2 is the heavy-tailed variant (mean 4 s, p99 about 30 s).
 * @param seed            the workload's seed.
 */
public record CodingAgentWorkload(int systemMinTokens, int systemMaxTokens, int taskMinTokens, int taskMaxTokens,
                                  int minTurns, int maxTurns, int toolMinTokens, int toolMaxTokens, int outputMin,
                                  int outputMax, long toolMedianNs, double toolSigma, long seed) {
    /** Lognormal shape of the default tool times. */
    public static final double TOOL_SIGMA = 0.35;
    /** Lognormal shape of the heavy-tailed variant. */
    public static final double HEAVY_TAILED_TOOL_SIGMA = 1.2;

    public CodingAgentWorkload {
        check(systemMinTokens >= 0 && systemMaxTokens >= systemMinTokens, "system prompt tokens");
        check(taskMinTokens >= 1 && taskMaxTokens >= taskMinTokens, "task tokens");
        check(minTurns >= 1 && maxTurns >= minTurns, "turns");
        check(toolMinTokens >= 1 && toolMaxTokens >= toolMinTokens, "tool tokens");
        check(outputMin >= 1 && outputMax >= outputMin, "output tokens");
        check(toolMedianNs >= 0 && toolSigma >= 0 && Double.isFinite(toolSigma), "tool time");
    }

    /**
     * The defaults: a 2-4k system prompt, a 500-1500-token task, 20-60 turns, 1-3k tool tokens and 200-500 output
     * tokens per turn, tool times lognormal around 2 s (or heavy-tailed).
     */
    public static CodingAgentWorkload defaults(boolean heavyTailedTools, long seed) {
        return new CodingAgentWorkload(2000, 4000, 500, 1500, 20, 60, 1000, 3000, 200, 500, 2_000_000_000L,
            heavyTailedTools ? HEAVY_TAILED_TOOL_SIGMA : TOOL_SIGMA, seed);
    }

    /** The system prompt every program shares. */
    public int[] systemPrompt() {
        WorkloadRandom random = new WorkloadRandom(seed);
        return random.tokens(random.between(systemMinTokens, systemMaxTokens));
    }

    /** Program {@code index} (starting at time 0), sharing {@code system}. */
    public SessionPlan program(int index, int[] system) {
        WorkloadRandom random = new WorkloadRandom(seed ^ (0x9E3779B97F4A7C15L * (index + 1)));
        int turns = random.between(minTurns, maxTurns);
        List<SessionPlan.Turn> plan = new ArrayList<>(turns);
        for (int t = 0; t < turns; t++) {
            int[] text = t == 0 ? random.tokens(random.between(taskMinTokens, taskMaxTokens))
                : random.tokens(random.between(toolMinTokens, toolMaxTokens));
            long gap = t == 0 ? 0 : toolNs(random);
            plan.add(new SessionPlan.Turn(text, random.between(outputMin, outputMax), gap, 0));
        }
        return new SessionPlan("program-" + index, 0, 0, system, plan, true);
    }

    /** Mean tokens a turn adds to the context (tool output plus answer). */
    public double meanTokensPerTurn() {
        return (toolMinTokens + toolMaxTokens) / 2.0 + (outputMin + outputMax) / 2.0;
    }

    public double meanOutputTokens() {
        return (outputMin + outputMax) / 2.0;
    }

    private long toolNs(WorkloadRandom random) {
        double u1 = Math.max(1e-12, random.fraction());
        double gaussian = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * random.fraction());
        return (long) (toolMedianNs * Math.exp(toolSigma * gaussian));
    }

    private static void check(boolean valid, String what) {
        if (!valid) {
            throw new IllegalArgumentException("invalid coding-agent workload (" + what + "): min must be >= 1 "
                + "(0 for the system prompt) and max >= min");
        }
    }
}
