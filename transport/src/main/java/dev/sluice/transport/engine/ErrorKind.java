package dev.sluice.transport.engine;

/** Why an engine failed a request, so that the frontend can answer with a fitting status. */
public enum ErrorKind {
    /** The engine refused the request as given (e.g. the prompt is too long for it): the client's to fix. */
    REJECTED,
    /** The engine could not be reached, refused to take work (overloaded) or stopped: worth retrying later. */
    UNAVAILABLE,
    /**
     * The engine is not set up for what it is asked: it does not serve the model named (HTTP 404), or refuses the
     * credentials (401, 403). A configuration error, neither the client's nor a sign of the engine's health.
     */
    MISCONFIGURED,
    /** The engine did not produce a token within the configured time. */
    TIMEOUT,
    /** Anything else: the engine broke the request midway, or answered something that is not a valid stream. */
    FAILED
}
