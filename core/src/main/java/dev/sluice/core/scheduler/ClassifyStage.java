package dev.sluice.core.scheduler;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.host.SchedulerObserver;

/**
 * The classification part of admission. Each input that bears on a request's classification (its registration, a
 * continuation's result, a wake-up, a classification deadline) goes in; a {@link Verdict} comes out, which the
 * {@link AdmissionFlow} carries out. This stage calls the classifier (or skips a pass-through one), checks its
 * decision, and itself starts a deferral (a continuation on a virtual thread) or parks the request (no thread, until
 * a wake-up or a deadline), arming the classification deadline on {@link Timers}. The classifier is the request's
 * own ({@link LiveRequest#host}): after a policy reload, requests registered before it keep theirs. With a
 * classification timeout, a request still deferred or parked when it passes (or whose {@code classify} call the
 * watchdog cut) is rejected with 504 {@code classifier_timeout}. Every decision is reported to the observer as
 * {@code onClassified} before the verdict is carried out, so the journal records it first.
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
final class ClassifyStage {
    private final Verdict verdict = new Verdict();
    private final LifecycleTable lifecycles;
    private final WorkerTable workers;
    private final Deferrals deferrals;
    private final Timers timers;
    private final RouterCounters counters;
    private final SchedulerObserver observer;
    private final DrainRate drain;
    private final long timeoutNs;
    private long nowNs;

    ClassifyStage(LifecycleTable lifecycles, WorkerTable workers, Deferrals deferrals,
                  Timers timers, RouterCounters counters, SchedulerObserver observer, DrainRate drain,
                  long timeoutNs) {
        this.lifecycles = lifecycles;
        this.workers = workers;
        this.deferrals = deferrals;
        this.timers = timers;
        this.counters = counters;
        this.observer = observer;
        this.drain = drain;
        this.timeoutNs = timeoutNs;
    }

    void now(long nanos) {
        nowNs = nanos;
    }

    /** A registered request: classify it (or reuse the cached classification of a retry). */
    Verdict classify(LiveRequest request) {
        if (request.classified) {
            return verdict.enqueue();
        }
        ClassifierHost host = request.host;
        if (host.passThrough()) {
            request.classified = true;
            observer.onClassified(nowNs, request, Classification.Kind.ADMIT);
            return verdict.enqueue();
        }
        request.initialCachedTokens = workers.cachedTokens(request);
        if (timeoutNs > 0) {
            request.classifyDeadline = nowNs + timeoutNs;
        }
        Object outcome = host.classify(request);
        if (outcome instanceof Classification decision) {
            return decide(request, decision);
        }
        if (outcome == ClassifierHost.TimedOut.INSTANCE) {
            return timedOut(request, "request classifier blocked the scheduler in classify past the classification "
                + "timeout of " + timeoutNs / 1_000_000 + " ms and was interrupted");
        }
        Throwable cause = ((ClassifierHost.Failure) outcome).cause();
        return verdict.fail(Rejections.classifierFailed("request classifier threw: " + cause, cause));
    }

    /** A continuation's result; stale results (lifecycle ended or reused) never reach here. */
    Verdict onDeferralResult(LiveRequest request, Classification result, Throwable failure) {
        // Classification is over: its timeout no longer applies (a queue deadline is the queue's).
        timers.cancel(request);
        if (failure != null) {
            return verdict.fail(Rejections.classifierFailed("request classifier continuation threw: " + failure,
                failure));
        }
        if (result != null && result.kind() != Classification.Kind.ADMIT
            && result.kind() != Classification.Kind.REJECT) {
            return verdict.fail(Rejections.classifierFailed("a continuation must admit or reject, not "
                + result.kind(), null));
        }
        return decide(request, result);
    }

    /** A wake-up of a parked request; ignored unless it is parked (a decision before the park waits for it). */
    Verdict onWake(LiveRequest request, AdmissionError rejection) {
        if (request.phase() != LifecyclePhase.PARKED) {
            return verdict.waiting();
        }
        timers.cancel(request);
        return parkDecided(request, rejection);
    }

    /**
     * The request's classification timer fired. Deferred: the classification timeout passed, so its continuation
     * is interrupted and dropped. Parked: past the classification timeout it is timed out (unless its own park
     * deadline came no later); otherwise the park's own outcome (admit, or its rejection) applies.
     */
    Verdict onDeadline(LiveRequest request) {
        if (request.phase() == LifecyclePhase.DEFERRED) {
            deferrals.interrupt(request);
            return timedOut(request, "request classifier continuation did not finish within the classification "
                + "timeout of " + timeoutNs / 1_000_000 + " ms and was interrupted");
        }
        if (request.phase() != LifecyclePhase.PARKED) {
            return verdict.waiting();
        }
        request.existingWakeup().close();
        if (request.classifyDeadline < request.parkDeadline) {
            return timedOut(request, "request classifier kept the request parked past the classification timeout "
                + "of " + timeoutNs / 1_000_000 + " ms");
        }
        return parkDecided(request, request.parkTimeout);
    }

    /** Checks a decision from {@code classify} or a continuation and concludes it. */
    private Verdict decide(LiveRequest request, Classification decision) {
        if (decision == null) {
            return verdict.fail(Rejections.classifierFailed("request classifier returned no decision", null));
        }
        if (decision.kind() != Classification.Kind.REJECT && decision.request() != request) {
            return verdict.fail(Rejections.replacedRequest());
        }
        observer.onClassified(nowNs, request, decision.kind());
        return switch (decision.kind()) {
            case ADMIT -> {
                request.classified = true;
                yield verdict.enqueue();
            }
            case REJECT -> verdict.reject(decision.error());
            case DEFER -> defer(request, decision);
            case PARK -> park(request, decision);
        };
    }

    private Verdict defer(LiveRequest request, Classification decision) {
        if (!deferrals.start(request, decision.continuation())) {
            return verdict.reject(drain.stamp(Rejections.TOO_MANY_DEFERRALS, -1, 0));
        }
        counters.increment(RouterCounters.Counter.DEFERRED);
        lifecycles.moveTo(request, LifecyclePhase.DEFERRED);
        if (request.classifyDeadline != ClassifyRequest.NO_DEADLINE) {
            timers.schedule(request, request.classifyDeadline);
        }
        return verdict.waiting();
    }

    private Verdict park(LiveRequest request, Classification decision) {
        request.wakeup();
        lifecycles.moveTo(request, LifecyclePhase.PARKED);
        request.parkTimeout = decision.error();
        counters.increment(RouterCounters.Counter.PARKED);
        request.parkDeadline = decision.parkDeadline();
        long deadline = Math.min(request.parkDeadline, request.classifyDeadline);
        if (deadline != ClassifyRequest.NO_DEADLINE) {
            timers.schedule(request, deadline);
        }
        return verdict.waiting();
    }

    private Verdict parkDecided(LiveRequest request, AdmissionError rejection) {
        observer.onClassified(nowNs, request, rejection != null ? Classification.Kind.REJECT
            : Classification.Kind.ADMIT);
        if (rejection != null) {
            return verdict.reject(rejection);
        }
        request.classified = true;
        return verdict.enqueue();
    }

    private Verdict timedOut(LiveRequest request, String diagnostic) {
        counters.increment(RouterCounters.Counter.CLASSIFIER_TIMEOUTS);
        observer.onClassified(nowNs, request, Classification.Kind.REJECT);
        return verdict.reject(Rejections.classifierTimeout(diagnostic));
    }
}
