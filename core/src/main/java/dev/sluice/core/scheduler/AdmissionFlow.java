package dev.sluice.core.scheduler;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyEvent;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.config.PolicyClassSpec;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.host.SchedulerObserver;
import dev.sluice.core.queue.ExpiredSink;
import dev.sluice.core.queue.PolicyQueues;
import dev.sluice.core.queue.QueueEntry;
import dev.sluice.core.queue.QueueRejection;
import java.util.Optional;

/**
 * The admission state machine of one model router: classify, then admit, reject, defer or park; enqueue into the
 * policy class; dispatch to a worker; end each lifecycle with exactly one terminal event.
 *
 * <pre>
 *   REGISTERED ─classify─▶ admit ─▶ QUEUED ─dispatch─▶ SENT ─first item─▶ RESPONDING ─▶ TERMINAL (Completed)
 *        │                 reject ─────────────────────────────────────────────────▶ TERMINAL (Aborted)
 *        ├─ defer ─▶ DEFERRED (virtual thread) ─result─▶ admit | reject
 *        └─ park  ─▶ PARKED (no thread) ─wake-up or deadline─▶ admit | reject
 *   a classification timeout ends DEFERRED and PARKED (and a blocked classify call) with 504 classifier_timeout
 *   cancellation, deadlines and failures end any phase with one Aborted
 * </pre>
 *
 * <p>Classification itself (classify, defer, park, wake-ups) is {@link ClassifyStage}'s; this class owns the queue,
 * dispatch and the end of each lifecycle. Owned by the scheduler thread; not thread-safe.
 */
final class AdmissionFlow implements Timers.Expiry {
    private final ClassifierHost host;
    private final LifecycleTable lifecycles;
    private final PolicyQueues queues;
    private final WorkerTable workers;
    private final Timers timers;
    private final Deferrals deferrals;
    private final RouterStats stats;
    private final PolicyProfile profile;
    private final SchedulerObserver observer;
    private final DrainRate drain;
    private final ClassifyStage stage;
    private final ExpiredSink expiredSink = this::onQueueExpired;
    private long nowNs;
    private boolean dispatchNeeded;

    AdmissionFlow(ClassifierHost host, LifecycleTable lifecycles, PolicyQueues queues, WorkerTable workers,
                  Deferrals deferrals, RouterStats stats, SchedulerObserver observer, long startNs,
                  long classificationTimeoutNs) {
        this.observer = observer;
        this.host = host;
        this.lifecycles = lifecycles;
        this.queues = queues;
        this.workers = workers;
        this.timers = new Timers(startNs, this);
        this.deferrals = deferrals;
        this.stats = stats;
        this.profile = queues.profile();
        this.drain = new DrainRate(profile.classes().size());
        this.stage = new ClassifyStage(this, host, workers, deferrals, timers, stats, observer, drain,
            classificationTimeoutNs);
    }

    void now(long nanos) {
        nowNs = nanos;
    }

    /** The deadlines of parked and queued requests. */
    Timers timers() {
        return timers;
    }

    /** The router's clock at the current duty cycle. */
    long now() {
        return nowNs;
    }

    /** A registered request: classify it (or reuse the cached classification of a retry). */
    void classify(LiveRequest request) {
        stage.classify(request);
    }

    /** A wake-up of a parked request. */
    void onWake(LiveRequest request, AdmissionError rejection) {
        stage.onWake(request, rejection);
    }

    /** A continuation's result; stale results (lifecycle ended or reused) never reach here. */
    void onDeferralResult(LiveRequest request, Classification result, Throwable failure) {
        stage.onDeferralResult(request, result, failure);
    }

    void leaveParked(LiveRequest request) {
        if (request.phase == LifecyclePhase.PARKED) {
            stats.parkedNow--;
        }
    }

    @Override
    public void onDeadline(LiveRequest request, long now) {
        if (request.phase == LifecyclePhase.PARKED) {
            stage.onParkDeadline(request);
        } else if (request.phase == LifecyclePhase.DEFERRED) {
            stage.onClassifyDeadline(request);
        } else if (request.phase == LifecyclePhase.QUEUED && queues.remove(request)) {
            expireQueued(request);
        }
    }

    private void onQueueExpired(QueueEntry entry) {
        LiveRequest request = (LiveRequest) entry;
        timers.cancel(request);
        expireQueued(request);
    }

    private void expireQueued(LiveRequest request) {
        stats.expired++;
        int classIndex = request.classIndex();
        reject(request, drain.stamp(Rejections.DEADLINE, classIndex, queues.size(classIndex)));
    }

    /** Enqueues an admitted request with a fresh queue snapshot, then dispatches whatever can go. */
    void enqueue(LiveRequest request) {
        if (workers.count() == 0) {
            reject(request, drain.stamp(Rejections.NO_ENDPOINTS, -1, 0));
            return;
        }
        long raw = request.inputTokens();
        // The cache estimate is taken afresh: a deferred or parked request may have waited long.
        long cached = workers.cachedTokens(request);
        long uncached = raw - cached;
        int classIndex;
        String override = request.policyClassOverride();
        if (override != null) {
            classIndex = profile.resolveStrict(override, uncached);
            if (classIndex < 0) {
                fail(request, Rejections.classifierFailed(
                    "invalid classification metadata: unknown policy class \"" + override + "\"", null));
                return;
            }
        } else {
            classIndex = profile.resolveLenient(request.requestedPolicyClass(), uncached);
        }
        if (request.dueAt() <= nowNs) {
            stats.expired++;
            reject(request, drain.stamp(Rejections.DEADLINE, classIndex, queues.size(classIndex)));
            return;
        }
        long cost = request.costOverride() > 0 ? request.costOverride() : Math.max(1, uncached);
        request.setQueueSnapshot(classIndex, raw, cached, cost, request.dueAt(), request.strictPriorityIn,
            request.priorityJumpIn, nowNs, request.pinnedWorker());
        QueueRejection rejection = queues.enqueue(request, workers.count(), workers);
        if (rejection != null) {
            stats.queueRejected++;
            reject(request, drain.stamp(Rejections.queueRejected(rejection), classIndex, queues.size(classIndex)));
            return;
        }
        observer.onEnqueued(nowNs, request, profile.classes().get(classIndex));
        leaveParked(request);
        request.phase = LifecyclePhase.QUEUED;
        stats.admitted++;
        if (request.dueAt() != ClassifyRequest.NO_DEADLINE) {
            timers.schedule(request, request.dueAt());
        }
        dispatchNeeded = true;
    }

    /**
     * Dispatches queued requests while a lane head can be placed, if anything changed since the last pass (an
     * arrival, a release, a worker); returns how many went. The scheduler calls it after every message, so an
     * arrival never overtakes a backlog and an uncontended request leaves in the same turn.
     */
    int dispatchIfNeeded() {
        int dispatched = 0;
        while (dispatchNeeded) {
            dispatchNeeded = false;
            dispatched += dispatch();
        }
        return dispatched;
    }

    /** Workers joined, left or changed settings: every parked lane must be asked again. */
    void workersChanged() {
        queues.onLoadChanged();
        dispatchNeeded = true;
    }

    /** Releases the request's booking and lets lanes parked on its worker be asked again. */
    private void release(LiveRequest request) {
        WorkerState worker = request.bookedWorker;
        workers.release(request);
        if (worker != null) {
            queues.onWorkerChanged(worker.id);
        }
    }

    private int dispatch() {
        int dispatched = 0;
        QueueEntry entry;
        while ((entry = queues.pollDispatchable(workers, nowNs, expiredSink)) != null) {
            LiveRequest request = (LiveRequest) entry;
            timers.cancel(request);
            PolicyClassSpec spec = profile.classes().get(request.classIndex());
            WorkerState worker;
            try {
                worker = workers.select(request, spec);
            } catch (RuntimeException e) {
                stats.selectorFailures++;
                lifecycles.logSanitized(request, Rejections.selectorFailed(e));
                reject(request, Rejections.selectorFailed(e));
                continue;
            }
            if (worker == null) {
                reject(request, drain.stamp(Rejections.NO_ENDPOINTS, -1, 0));
                continue;
            }
            workers.book(request, worker);
            queues.onWorkerChanged(worker.id);
            observer.onDispatched(nowNs, request, worker.id);
            drain.onDispatch(request.classIndex(), nowNs);
            request.phase = LifecyclePhase.SENT;
            stats.dispatched++;
            dispatched++;
            if (!lifecycles.notifyDispatched(request, worker)) {
                abort(request, null);
                continue;
            }
            if (host.observesEvents()) {
                host.deliver(new ClassifyEvent.Sent(request.requestId(), worker.id));
            }
        }
        return dispatched;
    }

    /** The first response item arrived. */
    void responding(LiveRequest request) {
        if (request.phase != LifecyclePhase.SENT) {
            return;
        }
        observer.onResponding(nowNs, request);
        request.phase = LifecyclePhase.RESPONDING;
        workers.prefillDone(request);
        queues.onWorkerChanged(request.lastWorker);
        if (host.observesEvents()) {
            host.deliver(new ClassifyEvent.Responding(request.requestId(), request.lastWorker));
        }
        dispatchNeeded = true;
    }

    /** The request finished; without a worker ever recorded it ends as aborted. */
    void completed(LiveRequest request) {
        if (request.lastWorker == null || (request.phase != LifecyclePhase.SENT
            && request.phase != LifecyclePhase.RESPONDING)) {
            abort(request, null);
            return;
        }
        stats.completed++;
        observer.onCompleted(nowNs, request, request.reportedContextTokens());
        terminate(request, true, null);
    }

    /**
     * Ends the lifecycle as aborted, whatever its phase: a waiting continuation is interrupted, a parked or queued
     * request is removed and answered as cancelled, a dispatched one releases its booking.
     */
    void abort(LiveRequest request, Throwable cause) {
        switch (request.phase) {
            case DEFERRED -> {
                deferrals.interrupt(request);
                lifecycles.notifyRejected(request, Rejections.CANCELLED);
            }
            case PARKED -> lifecycles.notifyRejected(request, Rejections.CANCELLED);
            case QUEUED -> {
                queues.remove(request);
                lifecycles.notifyRejected(request, Rejections.CANCELLED);
            }
            case TERMINAL -> {
                return;
            }
            default -> {
            }
        }
        stats.aborted++;
        observer.onAborted(nowNs, request, cause);
        terminate(request, false, cause);
    }

    /** A dispatch attempt failed and will be retried: back to the queue with the cached classification. */
    void retry(LiveRequest request) {
        if (request.phase != LifecyclePhase.SENT && request.phase != LifecyclePhase.RESPONDING) {
            return;
        }
        observer.onRetried(nowNs, request);
        release(request);
        request.phase = LifecyclePhase.REGISTERED;
        stats.retried++;
        dispatchNeeded = true;
        classify(request);
    }

    /** Rejects before dispatch: the handler gets the error, the classifier one {@code Aborted} carrying it. */
    void reject(LiveRequest request, AdmissionError error) {
        stats.rejected++;
        observer.onRejected(nowNs, request, error);
        lifecycles.notifyRejected(request, error);
        terminate(request, false, error);
    }

    /** A classifier failure: sanitized for the client, logged in full for the operator. */
    void fail(LiveRequest request, AdmissionError error) {
        stats.classifierFailures++;
        lifecycles.logSanitized(request, error);
        reject(request, error);
    }

    private void terminate(LiveRequest request, boolean completed, Throwable cause) {
        release(request);
        timers.cancel(request);
        RequestWakeup wakeup = request.existingWakeup();
        if (wakeup != null) {
            wakeup.close();
        }
        leaveParked(request);
        request.phase = LifecyclePhase.TERMINAL;
        lifecycles.remove(request);
        if (host.observesEvents()) {
            host.deliver(completed
                ? new ClassifyEvent.Completed(request.requestId(), request.lastWorker, request.observedContext())
                : new ClassifyEvent.Aborted(request.requestId(), Optional.ofNullable(request.lastWorker),
                    Optional.ofNullable(cause)));
        }
        if (!request.deferralRunning) {
            lifecycles.recycle(request);
        }
        dispatchNeeded = true;
    }
}
