package dev.sluice.transport.demo;

/**
 * The knobs of the demo's traffic, over HTTP ({@link HttpWorkload}) and in-process ({@link DemoWorkload}) alike, and
 * the prompt sizes both use. Immutable.
 *
 * @param durationNs    how long arrivals come.
 * @param chatPerSecond mean chat arrivals per second outside the burst.
 * @param sessions      agent sessions, running from the start to the end.
 * @param burstFactor   the chat rate's multiplier from {@code burstStartNs} to {@code burstEndNs}.
 * @param leaveFraction the share of chat clients that disconnect early.
 * @param seed          the workload's seed.
 */
record WorkloadShape(long durationNs, double chatPerSecond, int sessions, double burstFactor, long burstStartNs,
                     long burstEndNs, double leaveFraction, long seed) {
    /** The chats' three shared system prompts, in tokens. */
    static final int[] SYSTEM_PROMPT_TOKENS = {900, 1400, 2200};
    /** The agents' shared system prompt (instructions and tool definitions), in tokens. */
    static final int AGENT_PROMPT_TOKENS = 700;
}
