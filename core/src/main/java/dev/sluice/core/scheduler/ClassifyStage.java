package dev.sluice.core.scheduler;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.host.SchedulerObserver;

/**
 * The classification part of admission: call the classifier (or skip a pass-through one), check its decision, and
 * admit, reject, defer (a continuation on a virtual thread) or park (no thread, until a wake-up or a deadline).
 * Admitted requests go on to {@link AdmissionFlow#enqueue}; failures become sanitized rejections. With a
 * classification timeout, a request still deferred or parked when it passes (or whose {@code classify} call was cut
 * by the watchdog) is rejected with 504 {@code classifier_timeout}: journaled as a {@code REJECT} decision, and the
 * classifier sees one {@code Aborted}.
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
final class ClassifyStage {
    private final AdmissionFlow flow;
    private final ClassifierHost host;
    private final WorkerTable workers;
    private final Deferrals deferrals;
    private final Timers timers;
    private final RouterStats stats;
    private final SchedulerObserver observer;
    private final DrainRate drain;
    private final long timeoutNs;

    ClassifyStage(AdmissionFlow flow, ClassifierHost host, WorkerTable workers, Deferrals deferrals, Timers timers,
                  RouterStats stats, SchedulerObserver observer, DrainRate drain, long timeoutNs) {
        this.timeoutNs = timeoutNs;
        this.flow = flow;
        this.host = host;
        this.workers = workers;
        this.deferrals = deferrals;
        this.timers = timers;
        this.stats = stats;
        this.observer = observer;
        this.drain = drain;
    }

    /** A registered request: classify it (or reuse the cached classification of a retry). */
    void classify(LiveRequest request) {
        if (request.classified) {
            flow.enqueue(request);
            return;
        }
        if (host.passThrough()) {
            request.classified = true;
            observer.onClassified(flow.now(), request, Classification.Kind.ADMIT);
            flow.enqueue(request);
            return;
        }
        request.initialCachedTokens = workers.cachedTokens(request);
        if (timeoutNs > 0) {
            request.classifyDeadline = flow.now() + timeoutNs;
        }
        Object outcome = host.classify(request);
        if (outcome instanceof Classification decision) {
            apply(request, decision);
        } else if (outcome == ClassifierHost.TimedOut.INSTANCE) {
            timeOut(request, "request classifier blocked the scheduler in classify past the classification timeout "
                + "of " + timeoutNs / 1_000_000 + " ms and was interrupted");
        } else {
            Throwable cause = ((ClassifierHost.Failure) outcome).cause();
            flow.fail(request, Rejections.classifierFailed("request classifier threw: " + cause, cause));
        }
    }

    /** Applies a decision from {@code classify}, a continuation or a wake-up. */
    void apply(LiveRequest request, Classification decision) {
        if (decision == null) {
            flow.fail(request, Rejections.classifierFailed("request classifier returned no decision", null));
            return;
        }
        if (decision.kind() != Classification.Kind.REJECT && decision.request() != request) {
            flow.fail(request, Rejections.replacedRequest());
            return;
        }
        observer.onClassified(flow.now(), request, decision.kind());
        switch (decision.kind()) {
            case ADMIT -> {
                request.classified = true;
                flow.enqueue(request);
            }
            case REJECT -> flow.reject(request, decision.error());
            case DEFER -> defer(request, decision);
            case PARK -> park(request, decision);
        }
    }

    private void defer(LiveRequest request, Classification decision) {
        if (request.phase == LifecyclePhase.DEFERRED) {
            flow.fail(request, Rejections.classifierFailed("a continuation returned another deferral", null));
            return;
        }
        if (!deferrals.start(request, decision.continuation())) {
            flow.reject(request, drain.stamp(Rejections.TOO_MANY_DEFERRALS, -1, 0));
            return;
        }
        stats.deferred++;
        request.phase = LifecyclePhase.DEFERRED;
        if (request.classifyDeadline != ClassifyRequest.NO_DEADLINE) {
            timers.schedule(request, request.classifyDeadline);
        }
    }

    private void park(LiveRequest request, Classification decision) {
        if (request.phase == LifecyclePhase.DEFERRED) {
            flow.fail(request, Rejections.classifierFailed("a continuation returned a park", null));
            return;
        }
        request.wakeup();
        request.phase = LifecyclePhase.PARKED;
        request.parkTimeout = decision.error();
        stats.parked++;
        stats.parkedNow++;
        request.parkDeadline = decision.parkDeadline();
        long deadline = Math.min(request.parkDeadline, request.classifyDeadline);
        if (deadline != ClassifyRequest.NO_DEADLINE) {
            timers.schedule(request, deadline);
        }
    }

    /** A wake-up of a parked request; ignored unless it is parked (a decision before the park waits for it). */
    void onWake(LiveRequest request, AdmissionError rejection) {
        if (request.phase != LifecyclePhase.PARKED) {
            return;
        }
        timers.cancel(request);
        decideParked(request, rejection);
    }

    private void decideParked(LiveRequest request, AdmissionError rejection) {
        observer.onClassified(flow.now(), request, rejection != null ? Classification.Kind.REJECT
            : Classification.Kind.ADMIT);
        if (rejection != null) {
            flow.reject(request, rejection);
        } else {
            request.classified = true;
            flow.enqueue(request);
        }
    }

    /** A continuation's result; stale results (lifecycle ended or reused) never reach here. */
    void onDeferralResult(LiveRequest request, Classification result, Throwable failure) {
        if (failure != null) {
            flow.fail(request, Rejections.classifierFailed("request classifier continuation threw: " + failure,
                failure));
        } else if (result != null && result.kind() != Classification.Kind.ADMIT
            && result.kind() != Classification.Kind.REJECT) {
            flow.fail(request, Rejections.classifierFailed("a continuation must admit or reject, not " + result.kind(),
                null));
        } else {
            apply(request, result);
        }
    }

    /**
     * The parked request's timer fired: past the classification timeout it is timed out (unless its own park
     * deadline came no later); otherwise the park's own outcome (admit, or its rejection) applies.
     */
    void onParkDeadline(LiveRequest request) {
        request.existingWakeup().close();
        if (request.classifyDeadline < request.parkDeadline) {
            timeOut(request, "request classifier kept the request parked past the classification timeout of "
                + timeoutNs / 1_000_000 + " ms");
            return;
        }
        decideParked(request, request.parkTimeout);
    }

    /** A deferred request's classification timeout passed: its continuation is interrupted and dropped. */
    void onClassifyDeadline(LiveRequest request) {
        deferrals.interrupt(request);
        timeOut(request, "request classifier continuation did not finish within the classification timeout of "
            + timeoutNs / 1_000_000 + " ms and was interrupted");
    }

    private void timeOut(LiveRequest request, String diagnostic) {
        stats.classifierTimeouts++;
        observer.onClassified(flow.now(), request, Classification.Kind.REJECT);
        flow.reject(request, Rejections.classifierTimeout(diagnostic));
    }
}
