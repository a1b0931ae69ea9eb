package dev.sluice.transport.metrics;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.PolicyClassSpec;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.host.PolicyChange;
import dev.sluice.core.host.RequestView;
import dev.sluice.core.host.SchedulerObserver;
import dev.sluice.core.journal.JournalWriter;
import dev.sluice.core.router.RouterStatistics;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.SystemNanoClock;

/**
 * One model router's metrics, kept by observing its scheduler: outcomes by reason and status, queue depth and
 * pending tokens per policy class, queue-wait and admission-decision latency, deferrals and parks in progress,
 * the router's load estimate per worker, each worker's capacity and its engine's last report of its own load.
 * Written by the scheduler thread only (single writer, no locks, no allocation once every label has been seen; the
 * health and telemetry parts by their own threads); read by scrapes on any thread. Labels are bounded: classes come
 * from the configuration, reasons from a closed set, workers from the fleet; never request or session ids.
 */
public final class RouterMetrics implements SchedulerObserver {
    static final int PENDING_REQUESTS = 0;
    static final int PENDING_ISL_TOKENS = 1;
    static final int PENDING_CACHED_TOKENS = 2;
    static final int ENQUEUED = 3;
    static final int DISPATCHED = 4;
    static final int REJECTED = 5;
    static final int EXPIRED = 6;
    static final int FIELDS = 7;
    /** The reason of the router's preemption abort ({@code Rejections.PREEMPTED}). */
    private static final String PREEMPTED = "preempted";
    /** Shares of the most served tenants kept per tenant-fair class (ranks 1..TOP_TENANTS). */
    static final int TOP_TENANTS = 3;

    final String model;
    private final int overloadStatus;
    /** Per class; replaced by a policy reload (scheduler thread), read by scrapes. */
    volatile ClassMetrics classes;
    final AtomicLong reloadsApplied = new AtomicLong();
    final AtomicLong reloadsRefused = new AtomicLong();
    /**
     * Per tenant-fair class name: active tenants, then the top tenants' shares as double bits. A class's array is
     * created at its first report (one per class name), then only written.
     */
    final ConcurrentHashMap<String, AtomicLongArray> tenantGauges = new ConcurrentHashMap<>();
    final LatencyHistogram decision = new LatencyHistogram();
    final AtomicLong arrived = new AtomicLong();
    final AtomicLong completed = new AtomicLong();
    final AtomicLong aborted = new AtomicLong();
    final AtomicLong preempted = new AtomicLong();
    final AtomicLong untrustedHeaders = new AtomicLong();
    final WorkerHealthMetrics health = new WorkerHealthMetrics();
    final KvEventMetrics kvEvents = new KvEventMetrics();
    final EngineTelemetryMetrics telemetry = new EngineTelemetryMetrics(SystemNanoClock.INSTANCE);
    final Supplier<RouterStatistics> stats;
    final ConcurrentHashMap<String, Outcome> rejections = new ConcurrentHashMap<>();
    final ConcurrentHashMap<WorkerWithDpRank, WorkerLoad> workers = new ConcurrentHashMap<>();

    /** Rejections of one reason. */
    static final class Outcome {
        final int status;
        final AtomicLong count = new AtomicLong();

        Outcome(int status) {
            this.status = status;
        }
    }

    /** The router's booked load on one worker rank, its capacity, and what its engine last reported (-1: never). */
    static final class WorkerLoad {
        final AtomicLong activeRequests = new AtomicLong();
        final AtomicLong activePrefillTokens = new AtomicLong();
        final AtomicLong totalKvBlocks = new AtomicLong(-1);
        final AtomicLong engineRunning = new AtomicLong(-1);
        final AtomicLong engineWaiting = new AtomicLong(-1);
        final AtomicLong engineKvBlocks = new AtomicLong(-1);
        volatile boolean registered = true;
    }

    /** The scrapes of the workers' engines' metrics, which the scrapers report from their own threads. */
    public EngineTelemetryMetrics telemetry() {
        return telemetry;
    }

    /** The workers' engine health, which the frontend's health tracker reports from its own threads. */
    public WorkerHealthMetrics health() {
        return health;
    }

    /** The workers' KV-event subscribers, which count from their own threads. */
    public KvEventMetrics kvEvents() {
        return kvEvents;
    }

    /**
     * Counts privileged headers ignored because the client is not a trusted source. Any thread (the HTTP
     * handlers), unlike the scheduler callbacks.
     */
    public void untrustedHeaders(int count) {
        if (count > 0) {
            untrustedHeaders.addAndGet(count);
        }
    }

    /**
     * @param stats the router's counters ({@code ModelRouter::stats}), read at scrape time for the live gauges; it
     *              may be set after the router is built, see {@link #attach}.
     */
    public RouterMetrics(String model, PolicyProfile profile, int overloadStatus) {
        this.stats = this::attachedStats;
        this.model = model;
        this.overloadStatus = overloadStatus;
        this.classes = ClassMetrics.of(profile);
    }

    /** A reloaded policy file was refused (invalid): the old policy serves on. Any thread. */
    public void policyReloadRefused() {
        reloadsRefused.incrementAndGet();
    }

    /** Reloaded policies this router took over so far. */
    public long policyReloadsApplied() {
        return reloadsApplied.get();
    }

    /** Reloaded policy files refused so far. */
    public long policyReloadsRefused() {
        return reloadsRefused.get();
    }

    /**
     * Queue wait (enqueue to dispatch) of one policy class so far, in microseconds: a copy, safe to read on any
     * thread while the scheduler records.
     */
    public Histogram queueWaitMicros(int classIndex) {
        ClassMetrics table = classes;
        return table.queueWait[table.slot(classIndex)].snapshot();
    }

    private volatile Supplier<RouterStatistics> attached;

    /** Connects the router whose counters the live gauges read (the router is built after its observer). */
    public void attach(Supplier<RouterStatistics> routerStats) {
        this.attached = routerStats;
    }

    private volatile JournalWriter journal;

    /** Connects the router's journal, whose health and counters the scrape reports (none: no journal metrics). */
    public void attachJournal(JournalWriter writer) {
        this.journal = writer;
    }

    /** The attached journal, or {@code null}. */
    JournalWriter journal() {
        return journal;
    }

    private RouterStatistics attachedStats() {
        Supplier<RouterStatistics> source = attached;
        return source == null ? null : source.get();
    }

    private void add(int classIndex, int field, long delta) {
        ClassMetrics table = classes;
        addAt(table, table.slot(classIndex), field, delta);
    }

    private static void addAt(ClassMetrics table, int slot, int field, long delta) {
        if (slot >= 0) {
            int at = slot * FIELDS + field;
            table.values.lazySet(at, table.values.get(at) + delta);
        }
    }

    @Override
    public void onPolicyReloaded(long nowNs, PolicyChange change) {
        classes = classes.reloaded(change.profile());
        increment(reloadsApplied, 1);
    }

    @Override
    public void onRequeued(long nowNs, RequestView request, PolicyClassSpec from, PolicyClassSpec to) {
        ClassMetrics table = classes;
        int was = table.slot(from.name());
        int now = table.slot(to.name());
        addAt(table, was, PENDING_REQUESTS, -1);
        addAt(table, was, PENDING_ISL_TOKENS, -request.inputTokens());
        addAt(table, was, PENDING_CACHED_TOKENS, -request.cachedTokens());
        addAt(table, now, PENDING_REQUESTS, 1);
        addAt(table, now, PENDING_ISL_TOKENS, request.inputTokens());
        addAt(table, now, PENDING_CACHED_TOKENS, request.cachedTokens());
    }

    private static void increment(AtomicLong counter, long delta) {
        counter.lazySet(counter.get() + delta);
    }

    private void leaveQueue(RequestView request) {
        add(request.classIndex(), PENDING_REQUESTS, -1);
        add(request.classIndex(), PENDING_ISL_TOKENS, -request.inputTokens());
        add(request.classIndex(), PENDING_CACHED_TOKENS, -request.cachedTokens());
    }

    @Override
    public void onArrived(long nowNs, RequestView request) {
        increment(arrived, 1);
    }

    @Override
    public void onRefused(long nowNs, long lifecycleId, AdmissionRequest request, AdmissionError error) {
        increment(arrived, 1);
        countRejection(error);
    }

    @Override
    public void onEnqueued(long nowNs, RequestView request, PolicyClassSpec policyClass) {
        decision.recordNanos(nowNs - request.ingressAt());
        add(request.classIndex(), ENQUEUED, 1);
        add(request.classIndex(), PENDING_REQUESTS, 1);
        add(request.classIndex(), PENDING_ISL_TOKENS, request.inputTokens());
        add(request.classIndex(), PENDING_CACHED_TOKENS, request.cachedTokens());
    }

    @Override
    public void onRejected(long nowNs, RequestView request, AdmissionError error) {
        countRejection(error);
        if (request.stage() == RequestView.Stage.QUEUED) {
            leaveQueue(request);
            add(request.classIndex(), EXPIRED, 1);
        } else {
            decision.recordNanos(nowNs - request.ingressAt());
        }
        add(request.classIndex(), REJECTED, 1);
    }

    private void countRejection(AdmissionError error) {
        increment(rejections.computeIfAbsent(error.reason(), r -> new Outcome(error.httpStatus(overloadStatus)))
            .count, 1);
    }

    @Override
    public void onDispatched(long nowNs, RequestView request, WorkerWithDpRank worker) {
        leaveQueue(request);
        add(request.classIndex(), DISPATCHED, 1);
        ClassMetrics table = classes;
        int slot = table.slot(request.classIndex());
        if (slot >= 0) {
            table.queueWait[slot].recordNanos(nowNs - request.enqueuedAt());
        }
        WorkerLoad load = workers.computeIfAbsent(worker, w -> new WorkerLoad());
        increment(load.activeRequests, 1);
        increment(load.activePrefillTokens, prefillTokens(request));
    }

    @Override
    public void onResponding(long nowNs, RequestView request) {
        WorkerLoad load = workers.get(request.worker());
        if (load != null) {
            increment(load.activePrefillTokens, -prefillTokens(request));
        }
    }

    @Override
    public void onCompleted(long nowNs, RequestView request, long contextTokens) {
        increment(completed, 1);
        releaseWorker(request);
    }

    @Override
    public void onAborted(long nowNs, RequestView request, Throwable cause) {
        increment(aborted, 1);
        if (cause instanceof AdmissionError error && PREEMPTED.equals(error.reason())) {
            increment(preempted, 1);
        }
        if (request.stage() == RequestView.Stage.QUEUED) {
            leaveQueue(request);
        }
        releaseWorker(request);
    }

    @Override
    public void onRetried(long nowNs, RequestView request) {
        releaseWorker(request);
    }

    private void releaseWorker(RequestView request) {
        RequestView.Stage stage = request.stage();
        if (stage != RequestView.Stage.DISPATCHED && stage != RequestView.Stage.RESPONDING) {
            return;
        }
        WorkerLoad load = workers.get(request.worker());
        if (load != null) {
            increment(load.activeRequests, -1);
            if (stage == RequestView.Stage.DISPATCHED) {
                increment(load.activePrefillTokens, -prefillTokens(request));
            }
        }
    }

    private static long prefillTokens(RequestView request) {
        return request.inputTokens() - request.cachedTokens();
    }

    @Override
    public void onWorkerJoined(long nowNs, WorkerWithDpRank worker, long maxNumBatchedTokens,
                               OptionalLong totalKvBlocks) {
        WorkerLoad load = workers.computeIfAbsent(worker, w -> new WorkerLoad());
        load.registered = true;
        load.totalKvBlocks.lazySet(totalKvBlocks.orElse(-1));
    }

    @Override
    public void onTenantShares(long nowNs, int classIndex, int activeTenants, double[] topShares) {
        ClassMetrics table = classes;
        int slot = table.slot(classIndex);
        if (slot < 0) {
            return;
        }
        AtomicLongArray g = tenantGauges.computeIfAbsent(table.names.get(slot),
            name -> new AtomicLongArray(1 + TOP_TENANTS));
        for (int k = 0; k < TOP_TENANTS; k++) {
            g.set(1 + k, Double.doubleToRawLongBits(k < topShares.length ? topShares[k] : 0.0));
        }
        g.set(0, activeTenants);
    }

    @Override
    public void onWorkerLoad(long nowNs, dev.sluice.core.host.WorkerLoad report) {
        WorkerLoad load = workers.get(report.worker());
        if (load != null) {
            load.engineRunning.lazySet(report.runningRequests());
            load.engineWaiting.lazySet(report.waitingRequests());
            load.engineKvBlocks.lazySet(report.usedKvBlocks());
        }
    }

    @Override
    public void onWorkerLeft(long nowNs, WorkerWithDpRank worker) {
        WorkerLoad load = workers.get(worker);
        if (load != null) {
            load.registered = false;
        }
    }
}
