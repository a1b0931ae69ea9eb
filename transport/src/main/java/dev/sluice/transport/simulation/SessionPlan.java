package dev.sluice.transport.simulation;

import java.util.List;
import java.util.Objects;

/**
 * One client session of a workload: it starts at {@code startNs} and sends its turns one after another. Turn k's
 * prompt is turn k-1's prompt, the answer the engine generated for it, then turn k's new text, so the prefix grows
 * and a worker that still caches it prefills only the new part. Immutable (the token arrays are never changed).
 *
 * @param sessionId      the session's id; requests carry it as their session context when {@code sessionHeader}.
 * @param startNs        when the first turn arrives, on the virtual clock.
 * @param systemPromptId which system prompt the session starts with ({@code -1}: none shared with others).
 * @param systemPrompt   the system prompt's tokens (shared by sessions with the same id).
 * @param turns          the turns, at least one.
 * @param sessionHeader  whether requests carry a session context (agents do; plain chats do not).
 * @param policyClass    the class its requests name ({@code x-dynamo-meta-policy-class}), or {@code null}.
 */
public record SessionPlan(String sessionId, long startNs, int systemPromptId, int[] systemPrompt, List<Turn> turns,
                          boolean sessionHeader, String policyClass) {
    /**
     * One turn.
     *
     * @param newTokens  the text this turn appends (user message or tool result).
     * @param maxTokens  the answer's length (the simulated engine generates exactly this many).
     * @param gapNs      the think or tool time after the previous turn's answer before this turn is sent (0 for
     *                   the first turn).
     * @param patienceNs how long the client waits for the first token before it gives up (0: forever).
     */
    public record Turn(int[] newTokens, int maxTokens, long gapNs, long patienceNs) {
        public Turn {
            Objects.requireNonNull(newTokens, "newTokens");
            if (maxTokens < 1) {
                throw new IllegalArgumentException("maxTokens must be >= 1, was " + maxTokens);
            }
        }
    }

    public SessionPlan {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(systemPrompt, "systemPrompt");
        turns = List.copyOf(turns);
        if (turns.isEmpty()) {
            throw new IllegalArgumentException("a session needs at least one turn");
        }
    }

    /** A session whose requests name no policy class. */
    public SessionPlan(String sessionId, long startNs, int systemPromptId, int[] systemPrompt, List<Turn> turns,
                       boolean sessionHeader) {
        this(sessionId, startNs, systemPromptId, systemPrompt, turns, sessionHeader, null);
    }
}
