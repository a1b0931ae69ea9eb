package dev.sluice.core.api;

/**
 * Agent-session metadata from the request's headers ({@code x-dynamo-session-id},
 * {@code x-dynamo-parent-session-id}, {@code x-dynamo-session-final}). The values come from the client and are
 * not verified unless the frontend is configured to trust only some sources.
 *
 * @param sessionId       the session the request belongs to; never empty.
 * @param parentSessionId the session that spawned this one, or {@code null}.
 * @param finality        whether the client says this is the session's last turn.
 * @param inputTrigger    what produced this turn's input.
 */
public record SessionContext(String sessionId, String parentSessionId, Finality finality, InputTrigger inputTrigger) {

    /** The client's statement about whether the session ends with this request. */
    public enum Finality {
        /** No {@code x-dynamo-session-final} header. */
        UNSPECIFIED,
        /** The session ends with this request. */
        FINAL,
        /** The client said explicitly that the session continues. */
        CONTINUING
    }

    /** What produced the input of this turn. */
    public enum InputTrigger {
        USER_MESSAGE,
        TOOL_RESULT,
        OTHER
    }

    public SessionContext {
        if (sessionId == null || sessionId.isEmpty()) {
            throw new IllegalArgumentException("sessionId must not be empty");
        }
        finality = finality == null ? Finality.UNSPECIFIED : finality;
        inputTrigger = inputTrigger == null ? InputTrigger.OTHER : inputTrigger;
    }

    /** A session with only an id. */
    public static SessionContext of(String sessionId) {
        return new SessionContext(sessionId, null, Finality.UNSPECIFIED, InputTrigger.OTHER);
    }

    /** True when the client marked this request as the session's last. */
    public boolean isFinal() {
        return finality == Finality.FINAL;
    }
}
