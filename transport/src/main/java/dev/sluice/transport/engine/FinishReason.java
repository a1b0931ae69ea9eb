package dev.sluice.transport.engine;

/** Why a request ended, with OpenAI's {@code finish_reason} spelling. */
public enum FinishReason {
    /** The request generated {@code max_tokens} tokens. */
    LENGTH("length"),
    /** The model produced a stop token or string (never from the simulated engine). */
    STOP("stop"),
    /** The caller cancelled the request (client gone). */
    CANCELLED("cancelled");

    private final String wireName;

    FinishReason(String wireName) {
        this.wireName = wireName;
    }

    /** The OpenAI {@code finish_reason} value. */
    public String wireName() {
        return wireName;
    }
}
