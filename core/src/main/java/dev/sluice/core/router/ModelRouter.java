package dev.sluice.core.router;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.SharedBudgets;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.host.AdmissionListener;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.host.RemoteBooking;
import dev.sluice.core.host.WorkerLoad;
import dev.sluice.core.kv.KvEvent;
import dev.sluice.core.scheduler.ClassifierHost;
import dev.sluice.core.scheduler.CombiningScheduler;
import dev.sluice.core.scheduler.IngressProxy;
import dev.sluice.core.scheduler.PolicyReload;
import dev.sluice.core.scheduler.Rejections;
import dev.sluice.core.scheduler.RouterCounters;
import dev.sluice.core.scheduler.RouterCounters.Counter;
import dev.sluice.core.scheduler.SchedulerAgent;
import dev.sluice.core.scheduler.SchedulerParts;
import dev.sluice.core.scheduler.SchedulerWatchdog;
import dev.sluice.core.spi.RequestClassifier;
import dev.sluice.core.spi.RequestClassifierFactory;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.AgentRunner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admission controller of one served model: submit requests, learn where to send them (or why not), report
 * their lifecycle. All admission state lives on one scheduler thread; these methods check their arguments, then
 * only publish messages to its ingress ring, so they are thread-safe, never take a lock and never block an arrival: a
 * full ring answers the overload status at once. A bad argument is refused with an exception before anything is
 * published, and the router serves on.
 *
 * <pre>{@code
 * try (ModelRouter router = ModelRouter.start(new RouterContext().model("llama").profile(profile))) {
 *     router.workerJoined(WorkerWithDpRank.of(1), 8192, OptionalLong.of(4096));
 *     long id = router.submit(AdmissionRequest.builder("req-1").inputTokens(512).build(), listener);
 *     // listener.onDispatched(id, worker) -> send to the worker, then:
 *     router.responding(id);
 *     router.completed(id);
 * }
 * }</pre>
 */
public final class ModelRouter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ModelRouter.class);
    private static final AtomicLong LIFECYCLE_IDS = new AtomicLong();

    private final SchedulerParts parts;
    private final IngressProxy ingress;
    private final RouterCounters counters;
    private final AgentRunner runner;
    private final AgentInvoker invoker;
    private final SchedulerWatchdog watchdog;
    private final AtomicLong submitterListenerFailures = new AtomicLong();
    private final int blockSize;
    private final SharedBudgets sharedBudgets;

    private ModelRouter(RouterContext context, boolean ownThread) {
        this.parts = context.conclude(ownThread);
        this.blockSize = context.blockSize();
        this.sharedBudgets = context.sharedBudgets();
        this.ingress = parts.ingress();
        this.counters = parts.counters();
        String name = SchedulerAgent.roleName(parts.model());
        ErrorHandler errors = t -> LOG.error("scheduler of model {} failed a duty cycle", parts.model(), t);
        if (ownThread) {
            this.watchdog = context.watchdogThresholdNs() > 0 || parts.guard() != null
                ? new SchedulerWatchdog(name, context.watchdogThresholdNs(), parts.guard(),
                    counters.counter(Counter.DUTY_CYCLE_OVERRUNS)) : null;
            SchedulerAgent agent = new SchedulerAgent(parts, watchdog);
            parts.wakeable().pendingWork(agent::hasPendingWork);
            CombiningScheduler combining = parts.combining();
            if (combining != null) {
                combining.attach(agent);
                this.runner = new AgentRunner(combining, errors, counters.counter(Counter.SCHEDULER_ERRORS),
                    combining);
            } else {
                this.runner = new AgentRunner(context.idleStrategy() != null ? context.idleStrategy()
                    : parts.wakeable(), errors, counters.counter(Counter.SCHEDULER_ERRORS), agent);
            }
            this.invoker = null;
            AgentRunner.startOnThread(runner, r -> {
                Thread thread = new Thread(r, name);
                thread.setDaemon(true);
                return thread;
            });
        } else {
            this.watchdog = null;
            this.runner = null;
            this.invoker = new AgentInvoker(errors, counters.counter(Counter.SCHEDULER_ERRORS),
                new SchedulerAgent(parts, null));
            invoker.start();
        }
    }

    /** A router whose scheduler runs on its own platform thread. */
    public static ModelRouter start(RouterContext context) {
        return new ModelRouter(context, true);
    }

    /**
     * A router whose scheduler runs only when {@link #doWork()} is called, on the caller's thread: for
     * deterministic tests and replays with a manual clock.
     */
    public static ModelRouter manual(RouterContext context) {
        return new ModelRouter(context, false);
    }

    /** One duty cycle of a {@linkplain #manual manual} router; returns the work done. */
    public int doWork() {
        if (invoker == null) {
            throw new IllegalStateException("this router runs its own scheduler thread");
        }
        return invoker.invoke();
    }

    /** Duty cycles of a {@linkplain #manual manual} router until one finds nothing to do: all that is due now. */
    public void runUntilIdle() {
        while (doWork() > 0) {
            // Each cycle may leave work for the next (a callback's report, a dispatch it made possible).
        }
    }

    public String model() {
        return parts.model();
    }

    /** The classifier instance this router created (the pass-through one when none is configured). */
    public RequestClassifier classifier() {
        return parts.classifier().classifier();
    }

    /** Submits a request that arrived now (on the router's clock). */
    public long submit(AdmissionRequest request, AdmissionListener listener) {
        return submit(request, CombiningScheduler.Scheduled.NOW, listener);
    }

    /**
     * Submits a request for admission. The listener hears exactly one outcome, on the scheduler thread; a full
     * ingress ring (or a closed router) answers it at once on this thread. Whatever the listener throws, an
     * {@code Error} included, is contained wherever it is called: logged, never propagated, and the id is returned.
     *
     * @param ingressAt router ingress time on the router's clock (ns); classifiers see it as {@code ingressAt()}.
     * @return the lifecycle id to report the request's lifecycle with.
     * @throws NullPointerException if {@code request} or {@code listener} is null (nothing is submitted).
     */
    public long submit(AdmissionRequest request, long ingressAt, AdmissionListener listener) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(listener, "listener");
        long lifecycleId = LIFECYCLE_IDS.incrementAndGet();
        if (ingress.isClosed()) {
            refuseHere(listener, lifecycleId, Rejections.SHUTTING_DOWN);
        } else if (!(ingressAt == CombiningScheduler.Scheduled.NOW
            ? ingress.tryArriveNow(lifecycleId, request, listener, parts.clock())
            : ingress.tryArrive(lifecycleId, ingressAt, request, listener))) {
            refuseHere(listener, lifecycleId, ingress.isClosed() ? Rejections.SHUTTING_DOWN : Rejections.INGRESS_FULL);
        }
        return lifecycleId;
    }

    /** Answers on the submitting thread; the listener's failure is contained as on the scheduler thread. */
    private void refuseHere(AdmissionListener listener, long lifecycleId, AdmissionError error) {
        try {
            listener.onRejected(lifecycleId, error);
        } catch (Throwable t) {
            if (submitterListenerFailures.getAndIncrement() % 10_000 == 0) {
                LOG.error("Admission listener failed on the refusal of lifecycle {} ({}); the router serves on",
                    lifecycleId, error.reason(), t);
            }
        }
    }

    /** The first response item arrived from the worker. */
    public void responding(long lifecycleId) {
        ingress.responding(lifecycleId);
    }

    /** The request finished successfully; {@code Completed} carries the observed context tokens, if any. */
    public void completed(long lifecycleId) {
        ingress.completed(lifecycleId);
    }

    /** The request finished successfully with this prompt + completion token count (from usage). */
    public void completed(long lifecycleId, long contextTokens) {
        observeContextTokens(lifecycleId, contextTokens);
        completed(lifecycleId);
    }

    /**
     * The request ends unsuccessfully: the client left, or dispatch or streaming failed. Before dispatch this
     * cancels it (a continuation is interrupted; the listener hears a cancelled rejection); after, it releases the
     * booking. Either way the classifier sees one {@code Aborted}. {@code cause} may be null.
     */
    public void aborted(long lifecycleId, Throwable cause) {
        ingress.aborted(lifecycleId, cause);
    }

    /** The engine reports this absolute context count (prompt + generated so far). */
    public void observeContextTokens(long lifecycleId, long tokens) {
        ingress.contextTokens(lifecycleId, tokens);
    }

    /** The engine generated this many more tokens. Report the context count first. */
    public void observeOutputTokens(long lifecycleId, long tokens) {
        ingress.outputTokens(lifecycleId, tokens);
    }

    /**
     * The dispatch attempt failed and should be retried: the request returns to its queue with the classification
     * it already has (the classifier is not called again) and will be dispatched anew.
     */
    public void retry(long lifecycleId) {
        ingress.retry(lifecycleId);
    }

    /**
     * A worker rank registered (or changed its settings).
     *
     * @throws NullPointerException if {@code worker} or {@code totalKvBlocks} is null (nothing is published).
     */
    public void workerJoined(WorkerWithDpRank worker, long maxNumBatchedTokens, OptionalLong totalKvBlocks) {
        Objects.requireNonNull(worker, "worker");
        Objects.requireNonNull(totalKvBlocks, "totalKvBlocks");
        ingress.workerJoined(worker, maxNumBatchedTokens, totalKvBlocks);
    }

    /**
     * A worker rank deregistered; requests running on it end as their lifecycle reports say.
     *
     * @throws NullPointerException if {@code worker} is null (nothing is published).
     */
    public void workerLeft(WorkerWithDpRank worker) {
        Objects.requireNonNull(worker, "worker");
        ingress.workerLeft(worker);
    }

    /**
     * An engine's KV-cache event (blocks stored, removed, cache cleared), from any thread. Events must arrive in
     * the order each engine published them.
     *
     * @throws NullPointerException if {@code event} is null (nothing is published).
     */
    public void kvEvent(KvEvent event) {
        Objects.requireNonNull(event, "event");
        ingress.kvEvent(event);
    }

    /**
     * A worker rank's engine reported its own load (from its metrics endpoint, say), from any thread. What the
     * router's own bookings do not explain counts as the rank's outside load until the next report (see
     * {@link WorkerLoad}). A report of an unregistered rank is dropped.
     *
     * @throws NullPointerException if {@code load} is null (nothing is published).
     */
    public void workerLoad(WorkerLoad load) {
        Objects.requireNonNull(load, "load");
        ingress.workerLoad(load);
    }

    /**
     * Another router replica booked a request on one of this router's workers (see {@link RemoteBooking}), from any
     * thread: its load counts here as the router's own until {@link #remoteReleased} or {@link #remoteReplicaGone}.
     * A booking on an unregistered rank, or under a key the replica has booked here already, is dropped.
     *
     * @throws NullPointerException if {@code booking} is null (nothing is published).
     */
    public void remoteBooked(RemoteBooking booking) {
        Objects.requireNonNull(booking, "booking");
        ingress.remoteBooked(booking);
    }

    /** Another replica's booked request {@code key} produced its first token: its prefill leaves the load. */
    public void remotePrefillDone(String replica, long key) {
        ingress.remotePrefillDone(Objects.requireNonNull(replica, "replica"), key);
    }

    /** Another replica's booked request {@code key} ended: its load is released. Unknown keys are ignored. */
    public void remoteReleased(String replica, long key) {
        ingress.remoteReleased(Objects.requireNonNull(replica, "replica"), key);
    }

    /** Another replica is gone (its lease ran out), or will send its bookings anew: all of them are released. */
    public void remoteReplicaGone(String replica) {
        ingress.remoteReplicaGone(Objects.requireNonNull(replica, "replica"));
    }

    /**
     * Takes over a reloaded router policy, keeping the classifier: see {@link #reloadPolicy(String, String,
     * PolicyProfile, RequestClassifierFactory)}.
     */
    public void reloadPolicy(String source, String policyText, PolicyProfile profile) {
        ingress.reload(new PolicyReload(source, policyText, profile, null));
    }

    /**
     * Takes over a reloaded, validated router policy without a restart, from any thread. The scheduler applies it
     * between two duty cycles, atomically: queued requests move to their class in {@code profile} (or, their class
     * gone, to their family's or the default family's), deferred and parked requests wait on, dispatched ones run
     * on, and nothing in flight is lost; the journal records the swap. With a {@code classifier} factory (the
     * {@code request_classifier} section changed; {@code null} for pass-through) a new classifier instance is
     * created here, on the calling thread, and classifies the requests that arrive from the swap on; the old one
     * keeps its own requests until they end.
     *
     * @throws RuntimeException whatever the factory throws; nothing is sent then and the old policy serves on.
     */
    public void reloadPolicy(String source, String policyText, PolicyProfile profile,
                             RequestClassifierFactory classifier) {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(policyText, "policyText");
        Objects.requireNonNull(profile, "profile");
        ClassifierHost host = RouterContext.classifierHost(classifier, parts.model(), blockSize, parts.clock(),
            parts.workers(), parts.periodic(), parts.guard(), counters, sharedBudgets);
        ingress.reload(new PolicyReload(source, policyText, profile, host));
    }

    /**
     * Starts a graceful shutdown: new arrivals and every request not yet dispatched (deferred, parked, queued) are
     * answered 503 {@code shutting_down}; dispatched requests run to their end. Follow with {@link #close()} once
     * {@code stats().live()} reaches 0 or a grace period ends.
     */
    public void drain() {
        ingress.drain();
    }

    /**
     * The router's counters, read with acquire semantics: safe from any thread (the HTTP threads of {@code /health}
     * and {@code /metrics}).
     */
    public RouterStatistics stats() {
        return new RouterStatistics(get(Counter.ARRIVED), get(Counter.ADMITTED), get(Counter.DISPATCHED),
            get(Counter.COMPLETED), get(Counter.ABORTED), get(Counter.REJECTED), get(Counter.DEFERRED),
            get(Counter.PARKED), get(Counter.EXPIRED), get(Counter.RETRIED), get(Counter.QUEUE_REJECTED),
            get(Counter.CLASSIFIER_FAILURES), get(Counter.EVENT_FAILURES), get(Counter.LISTENER_FAILURES),
            get(Counter.STALE_RESULTS), (int) get(Counter.LIVE), (int) get(Counter.QUEUED),
            (int) get(Counter.DEFERRALS_RUNNING), (int) get(Counter.PARKED_NOW), get(Counter.DUTY_CYCLE_OVERRUNS),
            get(Counter.CLASSIFIER_TIMEOUTS), get(Counter.SELECTOR_FAILURES), get(Counter.SCHEDULER_ERRORS),
            get(Counter.PREEMPTED), (int) get(Counter.REMOTE_BOOKINGS));
    }

    /** Stops the scheduler; unfinished requests are answered as unavailable and end with {@code Aborted}. */
    @Override
    public void close() {
        if (ingress.isClosed()) {
            return;
        }
        ingress.close();
        if (runner != null) {
            runner.close();
            if (watchdog != null) {
                watchdog.close();
            }
        } else {
            invoker.close();
        }
    }

    private long get(Counter counter) {
        return counters.get(counter);
    }
}
