package dev.sluice.core.scheduler;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.ErrorClass;
import dev.sluice.core.queue.QueueRejection;
import java.time.Duration;

/**
 * The router's own typed rejections. Public messages are fixed texts; details go to the diagnostic. The shared
 * instances carry no per-request text, so answering them allocates nothing.
 */
public final class Rejections {
    /** The public text of every classifier failure; the HTTP body is exactly {@code {"error":"<this>"}}. */
    static final String CLASSIFIER_FAILED_MESSAGE = "request classifier failed";

    public static final AdmissionError INGRESS_FULL = AdmissionError.of(ErrorClass.CAPACITY_EXHAUSTED)
        .reason("ingress_full").diagnostic("the router's ingress ring is full").retryAfter(Duration.ofSeconds(1));
    static final AdmissionError TOO_MANY_LIVE = AdmissionError.of(ErrorClass.CAPACITY_EXHAUSTED)
        .reason("too_many_live_requests").diagnostic("the router's live-request limit is reached")
        .retryAfter(Duration.ofSeconds(1));
    static final AdmissionError TOO_MANY_DEFERRALS = AdmissionError.of(ErrorClass.CAPACITY_EXHAUSTED)
        .reason("too_many_deferrals").diagnostic("the router's limit on deferred classifications is reached");
    static final AdmissionError DUPLICATE_ID = AdmissionError.of(ErrorClass.CONFLICT)
        .reason("duplicate_request_id").publicMessage("A request with this id is already in flight");
    static final AdmissionError DEADLINE = AdmissionError.of(ErrorClass.DEADLINE_EXCEEDED)
        .reason("deadline_exceeded").publicMessage("request deadline exceeded").status(429);
    static final AdmissionError NO_ENDPOINTS = AdmissionError.of(ErrorClass.UNAVAILABLE)
        .reason("no_endpoints").publicMessage("No workers are available for this model");
    static final AdmissionError CANCELLED = AdmissionError.of(ErrorClass.CANCELLED)
        .reason("cancelled").publicMessage("Request cancelled");
    /**
     * A dispatched request that had not answered yet gave its capacity to higher-priority work: 503, retriable, with
     * the class's computed {@code Retry-After}.
     */
    public static final AdmissionError PREEMPTED = AdmissionError.of(ErrorClass.UNAVAILABLE)
        .reason("preempted").publicMessage("The request was preempted by higher-priority work; retry later");
    public static final AdmissionError SHUTTING_DOWN = AdmissionError.of(ErrorClass.UNAVAILABLE)
        .reason("shutting_down").publicMessage("The router is shutting down");

    private Rejections() {
    }

    /** A classifier threw, returned nothing or returned invalid metadata: sanitized 500, detail for operators. */
    static AdmissionError classifierFailed(String diagnostic, Throwable cause) {
        AdmissionError error = AdmissionError.of(ErrorClass.INTERNAL).reason("classifier_failed")
            .publicMessage(CLASSIFIER_FAILED_MESSAGE).diagnostic(diagnostic);
        return cause == null ? error : error.causedBy(cause);
    }

    /**
     * The classification (a deferral, a park, or a {@code classify} call blocking the scheduler) outlasted the
     * router's classification timeout: 504, detail for operators.
     */
    static AdmissionError classifierTimeout(String diagnostic) {
        return AdmissionError.of(ErrorClass.DEADLINE_EXCEEDED).reason("classifier_timeout")
            .publicMessage("request classification timed out").diagnostic(diagnostic);
    }

    /**
     * Handling one of the scheduler's messages threw (a bug in sluice or a broken listener or observer that escaped
     * its guard): that request fails with a sanitized 500, detail for operators; the scheduler serves on.
     */
    static AdmissionError schedulerFailed(Throwable cause) {
        return AdmissionError.of(ErrorClass.INTERNAL).reason("scheduler_failed")
            .publicMessage("internal error").diagnostic("the scheduler failed handling this request: " + cause)
            .causedBy(cause);
    }

    /** The worker selector failed: sanitized 500, detail for operators. */
    static AdmissionError selectorFailed(Throwable cause) {
        return AdmissionError.of(ErrorClass.INTERNAL).reason("worker_selection_failed")
            .publicMessage("worker selection failed").diagnostic("worker selector threw: " + cause).causedBy(cause);
    }

    /** The classifier returned an object other than the request it was given. */
    static AdmissionError replacedRequest() {
        return classifierFailed("invalid classification metadata: classifier replaced the logical request", null);
    }

    /** A per-worker queue limit of the class is reached: the overload status. */
    static AdmissionError queueRejected(QueueRejection rejection) {
        return AdmissionError.of(ErrorClass.CAPACITY_EXHAUSTED).reason("queue_rejected")
            .publicMessage(rejection.message()).diagnostic(rejection.toString());
    }
}
