package dev.sluice.core.api;

import java.util.Objects;

/**
 * A typed admission failure: an {@link ErrorClass} (which decides the HTTP status), a client-safe public message,
 * an operator-only diagnostic and a machine-readable reason. Immutable; each {@code with...} method returns a copy.
 *
 * <pre>{@code
 * return Classification.reject(AdmissionError.of(ErrorClass.CAPACITY_EXHAUSTED)
 *     .diagnostic("admission wait budget exhausted")
 *     .publicMessage("Admission wait budget exhausted; retry later"));
 * }</pre>
 *
 * <p>The diagnostic appears in logs and the journal only, never in a response. The public message is the only
 * occurrence-specific text a client sees: never build it from user input or backend text. It is an exception so
 * that it can travel as the cause of an {@code Aborted} event; it records no stack trace.
 */
public final class AdmissionError extends Exception {
    private static final long serialVersionUID = 1L;

    private final ErrorClass errorClass;
    private final String reason;
    private final String publicMessage;
    private final String diagnostic;
    private final int statusOverride;
    private final long retryAfterNanos;

    private AdmissionError(ErrorClass errorClass, String reason, String publicMessage, String diagnostic,
                           int statusOverride, long retryAfterNanos, Throwable cause) {
        super(diagnostic != null ? diagnostic : publicMessage, cause, false, false);
        this.errorClass = Objects.requireNonNull(errorClass, "errorClass");
        this.reason = Objects.requireNonNull(reason, "reason");
        this.publicMessage = Objects.requireNonNull(publicMessage, "publicMessage");
        this.diagnostic = diagnostic;
        this.statusOverride = statusOverride;
        this.retryAfterNanos = retryAfterNanos;
    }

    /** An error of this class with the class's default public message and a reason named after the class. */
    public static AdmissionError of(ErrorClass errorClass) {
        return new AdmissionError(errorClass, errorClass.name().toLowerCase(java.util.Locale.ROOT),
            errorClass.defaultMessage(), null, 0, 0, null);
    }

    /** A copy with this client-safe message. */
    public AdmissionError publicMessage(String message) {
        return new AdmissionError(errorClass, reason, message, diagnostic, statusOverride, retryAfterNanos, getCause());
    }

    /** A copy with this operator-only diagnostic (logs and journal, never the response). */
    public AdmissionError diagnostic(String text) {
        return new AdmissionError(errorClass, reason, publicMessage, text, statusOverride, retryAfterNanos, getCause());
    }

    /** A copy with this machine-readable reason, e.g. {@code queue_budget_exhausted}; lower case, no spaces. */
    public AdmissionError reason(String slug) {
        return new AdmissionError(errorClass, slug, publicMessage, diagnostic, statusOverride, retryAfterNanos,
            getCause());
    }

    /** A copy that answers exactly this status whatever the class (the router's queue deadline answers 429). */
    public AdmissionError status(int httpStatus) {
        if (httpStatus < 100 || httpStatus > 999) {
            throw new IllegalArgumentException("HTTP status must be 100..999, was " + httpStatus);
        }
        return new AdmissionError(errorClass, reason, publicMessage, diagnostic, httpStatus, retryAfterNanos,
            getCause());
    }

    /**
     * A copy that tells the client when a retry may succeed (the {@code Retry-After} header, rounded up to whole
     * seconds); 0 leaves it to the frontend's own estimate.
     */
    public AdmissionError retryAfter(java.time.Duration after) {
        long nanos = after.toNanos();
        if (nanos < 0) {
            throw new IllegalArgumentException("retryAfter must not be negative, was " + after);
        }
        return new AdmissionError(errorClass, reason, publicMessage, diagnostic, statusOverride, nanos, getCause());
    }

    /** When a retry may succeed, in nanoseconds from the rejection; 0 when the error does not say. */
    public long retryAfterNanos() {
        return retryAfterNanos;
    }

    /** A copy that records the underlying failure (kept for operators, never shown to clients). */
    public AdmissionError causedBy(Throwable cause) {
        return new AdmissionError(errorClass, reason, publicMessage, diagnostic, statusOverride, retryAfterNanos,
            cause);
    }

    public ErrorClass errorClass() {
        return errorClass;
    }

    /** Machine-readable reason, e.g. {@code deadline_exceeded} or {@code queue_rejected}. */
    public String reason() {
        return reason;
    }

    /** The text a client may see. */
    public String publicMessage() {
        return publicMessage;
    }

    /** The operator-only diagnostic, or {@code null}. */
    public String diagnostic() {
        return diagnostic;
    }

    /** The HTTP status to answer, given the configured overload status (see {@link OverloadStatus}). */
    public int httpStatus(int overloadStatus) {
        return statusOverride != 0 ? statusOverride : errorClass.httpStatus(overloadStatus);
    }

    @Override
    public String toString() {
        return "AdmissionError[" + errorClass + ", reason=" + reason + ", public=\"" + publicMessage + "\""
            + (diagnostic != null ? ", diagnostic=\"" + diagnostic + "\"" : "") + "]";
    }
}
