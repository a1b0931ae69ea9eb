package dev.sluice.plugins.thunderagent;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifierTimers;
import dev.sluice.core.api.ClassifyEvent;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.ErrorClass;
import dev.sluice.core.api.RequestClassifierContext;
import dev.sluice.core.spi.RequestClassifier;
import org.agrona.concurrent.NanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ThunderAgent: program-aware admission for agent sessions (arXiv 2602.13692, Dynamo's built-in {@code thunderagent}
 * classifier). A session is a program whose KV working set is accounted per worker rank. One request per session runs
 * at a time; later turns park (no thread) until it ends. Continuations stay on their program's worker (a soft
 * target). Under KV pressure programs are paused at tool boundaries, smallest acting ones first, and resumed when
 * room frees up, packed largest first; a program deferred for {@code resume_timeout_seconds} is forced back in. Nothing
 * running is ever preempted. Requests without a session pass through untouched.
 *
 * <p>Everything runs on the router's scheduler thread: {@code classify}, {@code onEvent} and the reconcile pass,
 * which is a {@link ClassifierTimers} task registered while programs or requests exist. A parked request that the
 * client abandons ends with {@code Aborted}, which rolls back its turn; a wake-up refused because the lifecycle
 * already ended rolls it back too. Not thread-safe.
 */
public final class ThunderAgentClassifier implements RequestClassifier {
    private static final Logger LOG = LoggerFactory.getLogger("thunderagent");

    private final ThunderAgentConfig config;
    private final NanoClock clock;
    private final ClassifierTimers timers;
    private final CapacitySource capacity;
    private final ThunderState state;
    private final ProgramScheduler scheduler;
    private final Reconciler reconciler;
    private ClassifierTimers.Cancellable reconcileTask;
    private ThunderState.Telemetry lastTelemetry;

    ThunderAgentClassifier(ThunderAgentConfig config, RequestClassifierContext context) {
        this.config = config;
        this.clock = context.clock();
        this.timers = context.timers();
        this.capacity = new CapacitySource(context);
        this.state = new ThunderState(config.sharedPrefixBudget()
            ? new PrefixCredit(context.kvInUse(), context.blockSize()) : PrefixCredit.NONE);
        this.scheduler = new ProgramScheduler(state, config, capacity, clock);
        this.reconciler = new Reconciler(state, config, scheduler);
        LOG.info("ThunderAgent admission enabled for model {}: interval {} ms, resume timeout {} ms, "
                + "max_tracked_requests {}", context.model(), config.schedulerIntervalNs() / 1_000_000,
            config.resumeTimeoutNs() / 1_000_000, config.maxTrackedRequests());
    }

    @Override
    public Classification classify(ClassifyRequest request) {
        if (request.sessionContext() == null) {
            return Classification.admit(request);
        }
        String id = request.requestId();
        if (id == null || id.isEmpty()) {
            return refuse("thunderagent_missing_request_id", "session-aware classification requires a request ID");
        }
        if (state.requests.containsKey(id)) {
            return refuse("thunderagent_duplicate_request",
                "request \"" + id + "\" is already active in the ThunderAgent classifier");
        }
        if (state.requests.size() >= config.maxTrackedRequests()) {
            return refuse("thunderagent_request_limit", "ThunderAgent is already tracking its configured limit of "
                + config.maxTrackedRequests() + " requests");
        }
        String session = request.sessionContext().sessionId();
        if (!state.programs.containsKey(session) && !state.sessions.containsKey(session)
            && state.programs.size() >= config.maxTrackedRequests() && !state.evictOldestIdle()) {
            return refuse("thunderagent_program_limit", "ThunderAgent is already tracking its configured limit of "
                + config.maxTrackedRequests() + " programs");
        }
        PendingRequest pending = new PendingRequest(request);
        pending.hostRequest = request;
        state.requests.put(id, pending);
        SessionQueue queue = state.sessions.computeIfAbsent(session, s -> new SessionQueue());
        queue.waiting.add(pending);
        startReconciling();
        if (queue.admissible() == pending && scheduler.tryAdmit(pending, capacity.get(), clock.nanoTime())) {
            return Classification.admit(request);
        }
        pending.wakeup = request.wakeup();
        state.addArrival(pending);
        return Classification.park(request, ClassifyRequest.NO_DEADLINE, null);
    }

    @Override
    public void onEvent(ClassifyEvent event) {
        PendingRequest request = state.requests.get(event.requestId());
        if (request == null) {
            return;
        }
        switch (event) {
            case ClassifyEvent.Sent sent -> scheduler.sent(request, sent.worker());
            case ClassifyEvent.Responding ignored -> {
            }
            case ClassifyEvent.Completed done -> scheduler.completed(request, done.contextTokens(), clock.nanoTime());
            case ClassifyEvent.Aborted ignored -> scheduler.cancel(request);
        }
        stopReconcilingIfIdle();
    }

    /** One reconcile pass; the periodic task. Package-private so tests can run it at a chosen instant. */
    Reconciler.Report reconcile() {
        Reconciler.Report report = reconciler.reconcile(capacity.get(), clock.nanoTime());
        if (report.forcedResumes() > 0) {
            LOG.warn("ThunderAgent deferral timeout forced program resumes: forced_resumes={}",
                report.forcedResumes());
        }
        ThunderState.Telemetry telemetry = state.telemetry();
        if (report.changed() && !telemetry.equals(lastTelemetry) && LOG.isDebugEnabled()) {
            LOG.debug("ThunderAgent state: programs={} active={} paused={} marked_for_pause={} waiting_requests={} "
                    + "tracked_requests={}", telemetry.programs(), telemetry.active(), telemetry.paused(),
                telemetry.markedForPause(), telemetry.waitingRequests(), telemetry.trackedRequests());
        }
        lastTelemetry = telemetry;
        stopReconcilingIfIdle();
        return report;
    }

    private void startReconciling() {
        if (reconcileTask == null) {
            reconcileTask = timers.every(config.schedulerIntervalNs(), this::reconcile);
        }
    }

    private void stopReconcilingIfIdle() {
        if (reconcileTask != null && state.isEmpty()) {
            reconcileTask.cancel();
            reconcileTask = null;
        }
    }

    private static Classification refuse(String reason, String diagnostic) {
        // Dynamo answers these untyped: the client sees only the sanitized internal error.
        return Classification.reject(AdmissionError.of(ErrorClass.INTERNAL).reason(reason).diagnostic(diagnostic)
            .publicMessage("request classifier failed"));
    }

    /** The tracked state, for tests in this package. */
    ThunderState state() {
        return state;
    }

    /** Whether the reconcile task is registered, for tests. */
    boolean reconciling() {
        return reconcileTask != null;
    }
}
