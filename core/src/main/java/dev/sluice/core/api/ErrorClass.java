package dev.sluice.core.api;

/**
 * The kind of an admission failure, which decides the HTTP status the client sees. {@link #CAPACITY_EXHAUSTED}
 * answers the configured overload status (529 unless {@code DYN_HTTP_OVERLOAD_STATUS_CODE} says otherwise);
 * every other class has a fixed status.
 */
public enum ErrorClass {
    INVALID_REQUEST(400, "Invalid request"),
    UNAUTHENTICATED(401, "Unauthenticated"),
    PERMISSION_DENIED(403, "Permission denied"),
    NOT_FOUND(404, "Not found"),
    CONFLICT(409, "Conflict"),
    PAYLOAD_TOO_LARGE(413, "Payload too large"),
    UNSUPPORTED_MEDIA(415, "Unsupported media type"),
    /** A caller-specific limit (rate, quota): 429. */
    RATE_LIMITED(429, "Rate limit exceeded"),
    /** Pool or worker capacity: the overload status, 529 by default. */
    CAPACITY_EXHAUSTED(529, "Service temporarily overloaded"),
    UNAVAILABLE(503, "Service unavailable"),
    BACKEND_PROTOCOL(502, "Bad gateway"),
    /** A generic deadline; the router's own queue deadline answers 429 instead (see {@link AdmissionError}). */
    DEADLINE_EXCEEDED(504, "Deadline exceeded"),
    NOT_IMPLEMENTED(501, "Not implemented"),
    /** The caller went away; nothing is delivered (499 if it must be rendered). */
    CANCELLED(499, "Request cancelled"),
    INTERNAL(500, "Internal error");

    private final int defaultStatus;
    private final String defaultMessage;

    ErrorClass(int defaultStatus, String defaultMessage) {
        this.defaultStatus = defaultStatus;
        this.defaultMessage = defaultMessage;
    }

    /** The status this class answers; for {@link #CAPACITY_EXHAUSTED} the given overload status. */
    public int httpStatus(int overloadStatus) {
        return this == CAPACITY_EXHAUSTED ? overloadStatus : defaultStatus;
    }

    /** The client-safe message used when an error carries no public message of its own. */
    public String defaultMessage() {
        return defaultMessage;
    }
}
