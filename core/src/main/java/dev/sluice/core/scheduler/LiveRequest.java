package dev.sluice.core.scheduler;

import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.RequestProgress;
import dev.sluice.core.api.SessionContext;
import dev.sluice.core.api.Wakeup;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.AdmissionListener;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.host.RequestView;
import dev.sluice.core.queue.QueueEntry;

/**
 * One live request lifecycle: the classifier's view of it, its overrides, its queue snapshot and its booking.
 * Records are pooled and reused; the lifecycle id (unique, never reused) fences stale messages.
 *
 * <p>Owned by the scheduler thread; not thread-safe. While a continuation runs, that virtual thread may call the
 * {@link ClassifyRequest} methods; the scheduler reads the overrides only after the result is handed back.
 */
final class LiveRequest extends QueueEntry implements ClassifyRequest, RequestView {
    long lifecycleId;
    /** The classifier instance that classifies this request and hears its events (a reload keeps it). */
    ClassifierHost host;
    /** During a policy reload: the class it was queued in under the previous profile. */
    int previousClassIndex = -1;
    private LifecyclePhase phase = LifecyclePhase.TERMINAL;
    AdmissionListener listener;

    /**
     * What the host submitted, immutable: read through, not copied field by field, because each reference copied
     * into this old, pooled record pays a GC write barrier on every arrival.
     */
    private AdmissionRequest source;
    private long ingressAt;
    long initialCachedTokens;
    /** The worker table's last cache estimate for this request and the table version it was taken at. */
    long cachedEstimate;
    long cachedEstimateVersion = -1;

    private String classOverride;
    private long costOverride;
    private WorkerWithDpRank target;
    /** Overrides are cached once the classifier has decided; retries reuse them without classifying again. */
    boolean classified;

    private RequestProgress.Updater progress;
    private long contextTokens;
    private boolean contextObserved;
    /** When classification must have ended (deferrals and parks included), or {@code NO_DEADLINE}. */
    long classifyDeadline = NO_DEADLINE;
    /** While parked: the park's own deadline, or {@code NO_DEADLINE}. */
    long parkDeadline = NO_DEADLINE;
    /** While parked: the rejection at the park deadline, {@code null} to admit then. */
    dev.sluice.core.api.AdmissionError parkTimeout;
    private RequestWakeup wakeup;
    private final RouterSignals signals;
    /** Made once with the pooled record: admitting it allocates nothing. */
    private final Classification admitDecision;

    Thread deferral;
    /** True while a continuation may still touch this record; it is recycled only after the result comes back. */
    boolean deferralRunning;
    long timerId = -1;

    WorkerState bookedWorker;
    /** Its host refused a preemption: its response has begun, so it is never asked again. */
    boolean preemptRefused;
    WorkerWithDpRank lastWorker;
    /** Cached blocks of the chosen worker at the last placement. */
    int dispatchOverlapBlocks;

    LiveRequest(RouterSignals signals) {
        this.signals = signals;
        this.admitDecision = Classification.newAdmit(this);
    }

    void begin(long id, AdmissionRequest request, long ingressAtNs, AdmissionListener outcome) {
        lifecycleId = id;
        listener = outcome;
        source = request;
        ingressAt = ingressAtNs;
        initialCachedTokens = 0;
        cachedEstimate = 0;
        cachedEstimateVersion = -1;
        clearQueueSnapshot();
        classOverride = null;
        presetDueAt(NO_DEADLINE);
        costOverride = 0;
        target = null;
        classified = false;
        progress = null;
        contextTokens = request.inputTokens();
        contextObserved = false;
        parkTimeout = null;
        classifyDeadline = NO_DEADLINE;
        parkDeadline = NO_DEADLINE;
        wakeup = null;
        deferral = null;
        timerId = -1;
        bookedWorker = null;
        preemptRefused = false;
        lastWorker = null;
        dispatchOverlapBlocks = 0;
    }

    /** Drops references so a pooled record keeps nothing alive. */
    void clear() {
        listener = null;
        host = null;
        source = null;
        classOverride = null;
        target = null;
        progress = null;
        wakeup = null;
        deferral = null;
        bookedWorker = null;
        lastWorker = null;
        parkTimeout = null;
    }

    LifecyclePhase phase() {
        return phase;
    }

    /**
     * The one place a phase changes: moves to {@code next} if the move is legal, else throws (a scheduler bug, which
     * fails this request only). Returns the phase left. Call it through {@link LifecycleTable#moveTo}, which keeps the
     * per-phase counts.
     */
    LifecyclePhase moveTo(LifecyclePhase next) {
        LifecyclePhase previous = phase;
        if (!previous.canMoveTo(next)) {
            throw new IllegalStateException("illegal lifecycle move " + previous + " -> " + next + " of " + this);
        }
        phase = next;
        return previous;
    }

    long[] localBlockHashes() {
        return source.localBlockHashes();
    }

    @Override
    public int promptBlocks() {
        return source.promptBlocks();
    }

    @Override
    public long promptBlockHash(int block) {
        return source.localBlockHashes()[block];
    }

    long[] sequenceBlockHashes() {
        return source.sequenceBlockHashes();
    }

    @Override
    public long lifecycleId() {
        return lifecycleId;
    }

    @Override
    public Stage stage() {
        return switch (phase) {
            case REGISTERED -> Stage.CLASSIFYING;
            case DEFERRED, PARKED -> Stage.WAITING_IN_CLASSIFIER;
            case QUEUED -> Stage.QUEUED;
            case SENT -> Stage.DISPATCHED;
            case RESPONDING -> Stage.RESPONDING;
            case TERMINAL -> Stage.ENDED;
        };
    }

    @Override
    public WorkerWithDpRank worker() {
        return lastWorker;
    }

    @Override
    public String requestedPolicyClass() {
        return source.policyClass();
    }

    @Override
    public int requestedStrictPriority() {
        return source.strictPriority();
    }

    @Override
    public double requestedPriorityJump() {
        return source.priorityJump();
    }

    @Override
    public String policyClassOverride() {
        return classOverride;
    }

    /** The engine-reported context total, or -1 when none was reported. */
    long reportedContextTokens() {
        return contextObserved ? contextTokens : -1;
    }

    /** Raises the running context total to at least {@code tokens} (an engine-reported absolute count). */
    void observeContextTokens(long tokens) {
        contextObserved = true;
        if (tokens > contextTokens) {
            contextTokens = tokens;
        }
        publishProgress();
    }

    /** Adds generated tokens to the running context total; report context before outputs. */
    void observeOutputTokens(long tokens) {
        contextObserved = true;
        contextTokens += Math.max(0, tokens);
        publishProgress();
    }

    /** The context total for {@code Completed}: {@code Completed.UNKNOWN} unless the engine reported one. */
    long observedContext() {
        return contextObserved ? contextTokens : dev.sluice.core.api.ClassifyEvent.Completed.UNKNOWN;
    }

    private void publishProgress() {
        if (progress != null) {
            progress.updateContextTokens(contextTokens);
        }
    }

    /** Eagerly creates the objects a continuation may ask for, so that it never races the scheduler for them. */
    void prepareForOtherThread() {
        progress();
        wakeup();
    }

    /** The wake-up if the classifier asked for one, else {@code null}. */
    RequestWakeup existingWakeup() {
        return wakeup;
    }

    @Override
    public String requestId() {
        return source.requestId();
    }

    @Override
    public String clientRequestId() {
        return source.clientRequestId();
    }

    @Override
    public SessionContext sessionContext() {
        return source.sessionContext();
    }

    @Override
    public String tenant() {
        return source.tenant();
    }

    @Override
    public long inputTokens() {
        return source.inputTokens();
    }

    @Override
    public long ingressAt() {
        return ingressAt;
    }

    @Override
    public RequestProgress progress() {
        if (progress == null) {
            progress = RequestProgress.create(contextTokens);
        }
        return progress.progress();
    }

    @Override
    public WorkerWithDpRank pinnedWorker() {
        return source.pinnedWorker();
    }

    @Override
    public String policyClass() {
        return classOverride != null ? classOverride : source.policyClass();
    }

    @Override
    public long schedulingCostTokens() {
        if (costOverride > 0) {
            return costOverride;
        }
        long inputTokens = source.inputTokens();
        return Math.max(1, inputTokens - Math.min(initialCachedTokens, inputTokens));
    }

    @Override
    public long costOverride() {
        return costOverride;
    }

    @Override
    public WorkerWithDpRank workerSelectionTarget() {
        return target;
    }

    @Override
    public void setPolicyClass(String policyClass) {
        if (policyClass == null || policyClass.isEmpty()) {
            throw new IllegalArgumentException("policy class must not be empty");
        }
        this.classOverride = policyClass;
    }

    @Override
    public void setDueAt(long dueAtNanos) {
        presetDueAt(dueAtNanos);
    }

    @Override
    public void setSchedulingCostTokens(long tokens) {
        if (tokens < 1) {
            throw new IllegalArgumentException("scheduling cost must be at least 1 token, was " + tokens);
        }
        this.costOverride = tokens;
    }

    @Override
    public void setWorkerSelectionTarget(WorkerWithDpRank worker) {
        this.target = java.util.Objects.requireNonNull(worker, "worker");
    }

    @Override
    public void clearWorkerSelectionTarget() {
        this.target = null;
    }

    @Override
    public Classification reusableAdmit() {
        return admitDecision;
    }

    @Override
    public Wakeup wakeup() {
        if (wakeup == null) {
            wakeup = new RequestWakeup(signals, lifecycleId);
        }
        return wakeup;
    }

    @Override
    public String toString() {
        String id = source == null ? null : source.requestId();
        return "request " + id + " (lifecycle " + lifecycleId + ", " + phase + ")";
    }
}
