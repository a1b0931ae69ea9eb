package dev.sluice.core.scheduler;

import dev.sluice.core.api.AdmissionError;

/**
 * What one classification step concluded, for {@link AdmissionFlow} to carry out. {@link ClassifyStage} owns a single
 * instance and returns it from every step, so concluding allocates nothing: read it before the next step.
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
final class Verdict {
    /** What the flow does next with the request. */
    enum Next {
        /** Admitted: enqueue it into its policy class. */
        ENQUEUE,
        /** Rejected with {@link #error()} (the classifier's, a timeout, or a router limit). */
        REJECT,
        /** The classifier failed; {@link #error()} is the sanitized 500 (the detail is logged). */
        FAIL,
        /** Nothing now: the request waits (deferred, parked), or the input did not apply to it. */
        WAIT
    }

    private Next next;
    private AdmissionError error;

    Next next() {
        return next;
    }

    AdmissionError error() {
        return error;
    }

    Verdict enqueue() {
        return set(Next.ENQUEUE, null);
    }

    Verdict reject(AdmissionError rejection) {
        return set(Next.REJECT, rejection);
    }

    Verdict fail(AdmissionError failure) {
        return set(Next.FAIL, failure);
    }

    Verdict waiting() {
        return set(Next.WAIT, null);
    }

    private Verdict set(Next then, AdmissionError with) {
        next = then;
        error = with;
        return this;
    }
}
