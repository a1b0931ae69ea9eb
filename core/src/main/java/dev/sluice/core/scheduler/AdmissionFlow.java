package dev.sluice.core.scheduler;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.PolicyClassSpec;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.host.SchedulerObserver;
import dev.sluice.core.queue.ExpiredSink;
import dev.sluice.core.queue.PolicyQueues;
import dev.sluice.core.queue.QueueEntry;
import dev.sluice.core.queue.QueueRejection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admission state machine of one model router: classify, then admit, reject, defer or park; enqueue into the
 * policy class; dispatch to a worker; end each lifecycle with exactly one terminal event. Read it top-down: every
 * input names the step it starts; classification steps return a {@link Verdict} that {@link #carryOut} acts on;
 * every phase change goes through {@link LifecycleTable#moveTo}, which refuses an illegal one.
 *
 * <pre>
 *   arrived ─▶ ClassifyStage ─verdict─▶ ENQUEUE ─▶ enqueue ─▶ QUEUED ─dispatch─▶ SENT ─responding─▶ RESPONDING
 *   wake-up, continuation result,  │    REJECT / FAIL ─▶ reject (the handler hears the error) ─▶ TERMINAL
 *   classification deadline ───────┘    WAIT (deferred, parked, or nothing to do)
 *   completed ─▶ TERMINAL (Completed)   aborted, queue deadline, failure ─▶ TERMINAL (Aborted)
 * </pre>
 *
 * <p>Queue deadlines live in the {@link PolicyQueues} alone (expired entries are swept out every duty cycle and before
 * every dispatch); the {@link Timers} hold only classification deadlines. Owned by the scheduler thread; not
 * thread-safe.
 */
final class AdmissionFlow implements Timers.Expiry {
    private static final Logger LOG = LoggerFactory.getLogger(AdmissionFlow.class);

    private final ClassifyStage stage;
    private final LifecycleTable lifecycles;
    private PolicyQueues queues;
    private final WorkerTable workers;
    private final Timers timers;
    private final Deferrals deferrals;
    private final RouterCounters counters;
    private PolicyProfile profile;
    private final SchedulerObserver observer;
    private final DrainRate drain;
    private final Preemptor preemptor;
    private final ExpiredSink expiredSink = this::onQueueExpired;
    private long nowNs;
    private boolean dispatchNeeded;

    AdmissionFlow(ClassifyStage stage, LifecycleTable lifecycles, PolicyQueues queues,
                  WorkerTable workers, Timers timers, Deferrals deferrals, RouterCounters counters,
                  SchedulerObserver observer, DrainRate drain) {
        this.stage = stage;
        this.lifecycles = lifecycles;
        this.queues = queues;
        this.workers = workers;
        this.timers = timers;
        this.deferrals = deferrals;
        this.counters = counters;
        this.profile = queues.profile();
        this.observer = observer;
        this.drain = drain;
        this.preemptor = new Preemptor(lifecycles, workers, counters, drain);
    }

    /** The queues requests wait in (a policy reload replaces them). */
    PolicyQueues queues() {
        return queues;
    }

    /** A policy reload: from now on requests queue in {@code next}, which already holds the moved backlog. */
    void queues(PolicyQueues next) {
        queues = next;
        profile = next.profile();
        dispatchNeeded = true;
    }

    /** The router's clock at the current duty cycle. */
    void now(long nanos) {
        nowNs = nanos;
        stage.now(nanos);
    }

    /** A registered request: classify it. */
    void arrived(LiveRequest request) {
        carryOut(request, stage.classify(request));
    }

    /** A wake-up of a parked request. */
    void onWake(LiveRequest request, AdmissionError rejection) {
        carryOut(request, stage.onWake(request, rejection));
    }

    /** A continuation's result; stale results (lifecycle ended or reused) never reach here. */
    void onDeferralResult(LiveRequest request, Classification result, Throwable failure) {
        carryOut(request, stage.onDeferralResult(request, result, failure));
    }

    /** A classification deadline (park or timeout) passed. */
    @Override
    public void onDeadline(LiveRequest request, long now) {
        try {
            carryOut(request, stage.onDeadline(request));
        } catch (Throwable t) {
            contain(request, t);
        }
    }

    private void carryOut(LiveRequest request, Verdict verdict) {
        switch (verdict.next()) {
            case ENQUEUE -> enqueue(request);
            case REJECT -> reject(request, verdict.error());
            case FAIL -> fail(request, verdict.error());
            case WAIT -> {
            }
        }
    }

    /** Enqueues an admitted request with a fresh queue snapshot; dispatch follows after the message. */
    private void enqueue(LiveRequest request) {
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
            counters.increment(RouterCounters.Counter.EXPIRED);
            reject(request, drain.stamp(Rejections.DEADLINE, classIndex, queues.size(classIndex)));
            return;
        }
        long cost = request.costOverride() > 0 ? request.costOverride() : Math.max(1, uncached);
        request.setQueueSnapshot(classIndex, raw, cached, cost, request.dueAt(), request.requestedStrictPriority(),
            request.requestedPriorityJump(), nowNs, request.pinnedWorker());
        request.setQueueTenant(request.tenant());
        QueueRejection rejection = queues.enqueue(request, workers.count(), workers);
        if (rejection != null) {
            counters.increment(RouterCounters.Counter.QUEUE_REJECTED);
            reject(request, drain.stamp(Rejections.queueRejected(rejection), classIndex, queues.size(classIndex)));
            return;
        }
        observer.onEnqueued(nowNs, request, profile.classes().get(classIndex));
        lifecycles.moveTo(request, LifecyclePhase.QUEUED);
        counters.increment(RouterCounters.Counter.ADMITTED);
        dispatchNeeded = true;
    }

    /** Rejects every queued request whose deadline has passed; returns how many. Once per duty cycle. */
    int expireQueued() {
        return queues.sweepExpired(nowNs, expiredSink);
    }

    private void onQueueExpired(QueueEntry entry) {
        LiveRequest request = (LiveRequest) entry;
        counters.increment(RouterCounters.Counter.EXPIRED);
        int classIndex = request.classIndex();
        try {
            reject(request, drain.stamp(Rejections.DEADLINE, classIndex, queues.size(classIndex)));
        } catch (Throwable t) {
            // Already out of the queue, so the sweep goes on past it either way; the request must still end.
            contain(request, t);
        }
    }

    /**
     * Dispatches queued requests while a lane head can be placed, if anything changed since the last pass (an
     * arrival, a release, a worker); returns how many went. The scheduler calls it after every message, so an
     * arrival never overtakes a backlog and an uncontended request leaves in the same turn.
     */
    int dispatchIfNeeded() {
        int dispatched = 0;
        preemptor.newDispatchCycle();
        while (dispatchNeeded) {
            dispatchNeeded = false;
            dispatched += dispatch();
        }
        return dispatched;
    }

    /** One worker's load changed outside the router's own bookings: its parked lanes must be asked again. */
    void workerChanged(WorkerWithDpRank worker) {
        queues.onWorkerChanged(worker);
        dispatchNeeded = true;
    }

    /** Workers joined, left or changed settings: every parked lane must be asked again. */
    void workersChanged() {
        queues.onLoadChanged();
        dispatchNeeded = true;
    }

    private int dispatch() {
        int dispatched = 0;
        QueueEntry entry;
        while ((entry = queues.pollDispatchable(workers, nowNs, expiredSink)) != null) {
            dispatched += place((LiveRequest) entry);
        }
        // Whatever is still queued is blocked: a head may take a sheddable request's capacity (Preemptor).
        LiveRequest head = preemptor.preemptOne(queues, profile, this);
        return head == null ? dispatched : dispatched + place(head);
    }

    /** Places a request taken out of its queue on a worker; 1 when it was dispatched. */
    private int place(LiveRequest request) {
        PolicyClassSpec spec = profile.classes().get(request.classIndex());
        WorkerState worker;
        try {
            worker = workers.select(request, spec);
        } catch (Throwable e) {
            // An Error too (a selector's AssertionError, StackOverflowError): it fails this request only.
            counters.increment(RouterCounters.Counter.SELECTOR_FAILURES);
            lifecycles.logSanitized(request, Rejections.selectorFailed(e));
            reject(request, Rejections.selectorFailed(e));
            return 0;
        }
        if (worker == null) {
            reject(request, drain.stamp(Rejections.NO_ENDPOINTS, -1, 0));
            return 0;
        }
        workers.book(request, worker);
        queues.onWorkerChanged(worker.id);
        observer.onDispatched(nowNs, request, worker.id);
        drain.onDispatch(request.classIndex(), nowNs);
        lifecycles.moveTo(request, LifecyclePhase.SENT);
        counters.increment(RouterCounters.Counter.DISPATCHED);
        if (!lifecycles.notifyDispatched(request, worker, nowNs)) {
            abort(request, null);
        } else if (request.host.observesEvents()) {
            request.host.deliver(request.host.sent(request.requestId(), worker.id));
        }
        return 1;
    }

    /** The first response item arrived. */
    void responding(LiveRequest request) {
        if (request.phase() != LifecyclePhase.SENT) {
            return;
        }
        observer.onResponding(nowNs, request);
        lifecycles.moveTo(request, LifecyclePhase.RESPONDING);
        workers.prefillDone(request);
        queues.onWorkerChanged(request.lastWorker);
        if (request.host.observesEvents()) {
            request.host.deliver(request.host.responding(request.requestId(), request.lastWorker));
        }
        dispatchNeeded = true;
    }

    /** The request finished; without a worker ever recorded it ends as aborted. */
    void completed(LiveRequest request) {
        if (request.lastWorker == null || !request.phase().dispatched()) {
            abort(request, null);
            return;
        }
        counters.increment(RouterCounters.Counter.COMPLETED);
        observer.onCompleted(nowNs, request, request.reportedContextTokens());
        terminate(request, true, null);
    }

    /**
     * Ends the lifecycle as aborted, whatever its phase: a waiting continuation is interrupted, a parked or queued
     * request is removed and answered as cancelled, a dispatched one releases its booking.
     */
    void abort(LiveRequest request, Throwable cause) {
        switch (request.phase()) {
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
        counters.increment(RouterCounters.Counter.ABORTED);
        observer.onAborted(nowNs, request, cause);
        terminate(request, false, cause);
    }

    /** A dispatch attempt failed and will be retried: back to the queue, its tenant's prompt charge kept (once). */
    void retry(LiveRequest request) {
        if (!request.phase().dispatched()) {
            return;
        }
        observer.onRetried(nowNs, request);
        queues.serviceRetried(request);
        release(request);
        lifecycles.moveTo(request, LifecyclePhase.REGISTERED);
        counters.increment(RouterCounters.Counter.RETRIED);
        dispatchNeeded = true;
        carryOut(request, stage.classify(request));
    }

    /**
     * Handling an input about this request threw (a bug, or a listener or observer error that escaped its guard):
     * count and log it, then end the request so nothing of it is left behind (out of the queue, its timer,
     * continuation and booking released), answered with a sanitized 500 if it was not dispatched yet, else aborted.
     * The scheduler serves on; a failure while ending it is logged and leaves the record to the shutdown sweep.
     */
    void contain(LiveRequest request, Throwable error) {
        counters.increment(RouterCounters.Counter.SCHEDULER_ERRORS);
        LOG.error("the scheduler failed handling {}; failing that request and serving on", request, error);
        try {
            failOnError(request, error);
        } catch (Throwable again) {
            LOG.error("the scheduler could not end {} after a failure", request, again);
        }
    }

    private void failOnError(LiveRequest request, Throwable error) {
        if (request.phase() == LifecyclePhase.TERMINAL) {
            return;
        }
        queues.remove(request);
        if (request.phase() == LifecyclePhase.DEFERRED) {
            deferrals.interrupt(request);
        }
        if (request.phase().dispatched()) {
            counters.increment(RouterCounters.Counter.ABORTED);
            observer.onAborted(nowNs, request, error);
            terminate(request, false, error);
        } else {
            reject(request, Rejections.schedulerFailed(error));
        }
    }

    /** Rejects before dispatch: the handler gets the error, the classifier one {@code Aborted} carrying it. */
    void reject(LiveRequest request, AdmissionError error) {
        counters.increment(RouterCounters.Counter.REJECTED);
        observer.onRejected(nowNs, request, error);
        lifecycles.notifyRejected(request, error);
        terminate(request, false, error);
    }

    /** A classifier failure: sanitized for the client, logged in full for the operator. */
    private void fail(LiveRequest request, AdmissionError error) {
        counters.increment(RouterCounters.Counter.CLASSIFIER_FAILURES);
        lifecycles.logSanitized(request, error);
        reject(request, error);
    }

    /** Releases the request's booking and lets lanes parked on its worker be asked again. */
    private void release(LiveRequest request) {
        WorkerState worker = request.bookedWorker;
        workers.release(request);
        if (worker != null) {
            queues.onWorkerChanged(worker.id);
        }
    }

    private void terminate(LiveRequest request, boolean completed, Throwable cause) {
        // Only a completion's context count is journaled, so only a completion charges generated tokens: a replay
        // must charge what the run charged.
        long context = request.reportedContextTokens();
        queues.serviceEnded(request, completed && context > 0 ? Math.max(0, context - request.inputTokens()) : 0);
        release(request);
        timers.cancel(request);
        RequestWakeup wakeup = request.existingWakeup();
        if (wakeup != null) {
            wakeup.close();
        }
        lifecycles.moveTo(request, LifecyclePhase.TERMINAL);
        try {
            if (request.host.observesEvents()) {
                request.host.deliver(completed
                    ? request.host.completed(request.requestId(), request.lastWorker, request.observedContext())
                    : request.host.aborted(request.requestId(), request.lastWorker, cause));
            }
        } finally {
            // Removed after the classifier heard the end: whoever sees the live count drop sees that too.
            lifecycles.remove(request);
        }
        if (!request.deferralRunning) {
            lifecycles.recycle(request);
        }
        dispatchNeeded = true;
    }
}
