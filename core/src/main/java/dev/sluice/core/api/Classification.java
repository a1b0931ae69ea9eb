package dev.sluice.core.api;

import java.util.Objects;

/**
 * A classifier's answer for one request: admit it now, reject it with a typed error, defer it to a continuation
 * that may block on a virtual thread, or park it until a {@link Wakeup} or a deadline.
 */
public final class Classification {
    /** The kind of answer. */
    public enum Kind {
        ADMIT,
        REJECT,
        DEFER,
        PARK
    }

    private final Kind kind;
    private final ClassifyRequest request;
    private final AdmissionError error;
    private final Continuation continuation;
    private final long parkDeadline;

    private Classification(Kind kind, ClassifyRequest request, AdmissionError error, Continuation continuation,
                           long parkDeadline) {
        this.kind = kind;
        this.request = request;
        this.error = error;
        this.continuation = continuation;
        this.parkDeadline = parkDeadline;
    }

    /**
     * Admits the request (with whatever overrides were set on it) into its policy-class queue. A host's pooled
     * request answers with its {@linkplain ClassifyRequest#reusableAdmit() reusable admit decision}, so admitting
     * allocates nothing; the answer is the same either way (a decision is immutable).
     */
    public static Classification admit(ClassifyRequest request) {
        Classification reused = Objects.requireNonNull(request, "request").reusableAdmit();
        if (reused != null && reused.kind == Kind.ADMIT && reused.request == request) {
            return reused;
        }
        return newAdmit(request);
    }

    /**
     * A new admit decision for {@code request}, for a host that keeps one per pooled request and returns it from
     * {@link ClassifyRequest#reusableAdmit()}. Classifiers call {@link #admit(ClassifyRequest)}.
     */
    public static Classification newAdmit(ClassifyRequest request) {
        return new Classification(Kind.ADMIT, Objects.requireNonNull(request, "request"), null, null, 0);
    }

    /** Rejects the request with a typed error; the client sees its status and public message. */
    public static Classification reject(AdmissionError error) {
        return new Classification(Kind.REJECT, null, Objects.requireNonNull(error, "error"), null, 0);
    }

    /**
     * Defers the decision to a continuation run on a virtual thread. The scheduler keeps serving other requests
     * and delivering events meanwhile.
     */
    public static Classification defer(ClassifyRequest request, Continuation continuation) {
        return new Classification(Kind.DEFER, Objects.requireNonNull(request, "request"), null,
            Objects.requireNonNull(continuation, "continuation"), 0);
    }

    /**
     * Parks the request, holding no thread, until its {@link ClassifyRequest#wakeup()} decides or until
     * {@code deadlineNanos} (on the router's clock) passes.
     *
     * @param deadlineNanos when to stop waiting; {@link ClassifyRequest#NO_DEADLINE} waits for the wake-up only.
     * @param onDeadline    the rejection to answer at the deadline, or {@code null} to admit at the deadline.
     */
    public static Classification park(ClassifyRequest request, long deadlineNanos, AdmissionError onDeadline) {
        return new Classification(Kind.PARK, Objects.requireNonNull(request, "request"), onDeadline, null,
            deadlineNanos);
    }

    public Kind kind() {
        return kind;
    }

    /** The request for admit, defer and park; {@code null} for reject. */
    public ClassifyRequest request() {
        return request;
    }

    /** The rejection for reject; for park the error answered at the deadline ({@code null}: admit). */
    public AdmissionError error() {
        return error;
    }

    /** The continuation for defer, else {@code null}. */
    public Continuation continuation() {
        return continuation;
    }

    /** For park, when to stop waiting. */
    public long parkDeadline() {
        return parkDeadline;
    }

    @Override
    public String toString() {
        return switch (kind) {
            case ADMIT -> "admit";
            case REJECT -> "reject " + error;
            case DEFER -> "defer";
            case PARK -> "park until " + (parkDeadline == ClassifyRequest.NO_DEADLINE ? "woken" : parkDeadline);
        };
    }
}
