package dev.sluice.core.router;

import com.lmax.disruptor.BusySpinWaitStrategy;
import com.lmax.disruptor.InsufficientCapacityException;
import com.lmax.disruptor.RingBuffer;
import dev.sluice.core.api.RequestClassifierContext;
import dev.sluice.core.api.WorkerSelectorContext;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.AdmissionListener;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.kv.KvEvent;
import dev.sluice.core.scheduler.ClassifierHost;
import dev.sluice.core.scheduler.IngressEvent;
import dev.sluice.core.scheduler.PeriodicTasks;
import dev.sluice.core.scheduler.PluginCallGuard;
import dev.sluice.core.scheduler.Rejections;
import dev.sluice.core.scheduler.RouterSignals;
import dev.sluice.core.scheduler.RouterStats;
import dev.sluice.core.scheduler.SchedulerAgent;
import dev.sluice.core.scheduler.SchedulerWatchdog;
import dev.sluice.core.scheduler.WakeableIdleStrategy;
import dev.sluice.core.scheduler.WorkerTable;
import dev.sluice.core.spi.RequestClassifier;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.AgentRunner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admission controller of one served model: submit requests, learn where to send them (or why not), report
 * their lifecycle. All admission state lives on one scheduler thread; these methods only publish messages to its
 * ingress ring, so they are thread-safe, never take a lock and never block an arrival: a full ring answers the
 * overload status at once.
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

    private final RouterContext context;
    private final RingBuffer<IngressEvent> ring;
    private final int arrivalReserve;
    private final SchedulerAgent agent;
    private final AgentRunner runner;
    private final AgentInvoker invoker;
    private final RequestClassifier classifier;
    private final WakeableIdleStrategy idle;
    private final SchedulerWatchdog watchdog;
    private volatile boolean closed;

    private ModelRouter(RouterContext context, boolean ownThread) {
        context.conclude();
        this.context = context;
        this.ring = RingBuffer.createMultiProducer(IngressEvent::new, context.ringSize(), new BusySpinWaitStrategy());
        // Arrivals stop while a quarter of the ring is left, so lifecycle messages always find a slot quickly.
        this.arrivalReserve = context.ringSize() / 4;
        this.idle = new WakeableIdleStrategy(1_000_000L);
        RouterSignals signals = new RouterSignals(idle::wake);
        WorkerTable workers = new WorkerTable(context.blockSize(), Objects.requireNonNull(context.workerSelector()
            .create(new WorkerSelectorContext(context.model(), context.blockSize(),
                new SplittableRandom(context.randomSeed()))), "the worker selector factory returned null"));
        PeriodicTasks periodic = new PeriodicTasks();
        RequestClassifierContext classifierContext = new RequestClassifierContext(context.model(),
            context.blockSize(), workers::snapshot, context.clock(), periodic);
        this.classifier = context.classifierFactory() == null ? new RequestClassifier() { }
            : Objects.requireNonNull(context.classifierFactory().create(classifierContext),
                "the request classifier factory returned null");
        PluginCallGuard guard = ownThread && context.classificationTimeoutNs() > 0
            ? new PluginCallGuard(context.classificationTimeoutNs()) : null;
        this.agent = new SchedulerAgent(context, ring, signals, new ClassifierHost(classifier, guard), workers,
            periodic, new RouterStats());
        ErrorHandler errors = t -> LOG.error("scheduler of model {} failed a duty cycle", context.model(), t);
        if (ownThread) {
            idle.pendingWork(agent::hasPendingWork);
            this.watchdog = context.watchdogThresholdNs() > 0 || guard != null
                ? new SchedulerWatchdog(agent.roleName(), context.watchdogThresholdNs(), guard) : null;
            agent.watchdog(watchdog);
            this.runner = new AgentRunner(context.idleStrategy() != null ? context.idleStrategy() : idle, errors,
                null, agent);
            this.invoker = null;
            AgentRunner.startOnThread(runner, r -> {
                Thread thread = new Thread(r, agent.roleName());
                thread.setDaemon(true);
                return thread;
            });
        } else {
            this.runner = null;
            this.watchdog = null;
            this.invoker = new AgentInvoker(errors, null, agent);
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

    public String model() {
        return context.model();
    }

    /** The classifier instance this router created (the pass-through one when none is configured). */
    public RequestClassifier classifier() {
        return classifier;
    }

    /** Submits a request that arrived now (on the router's clock). */
    public long submit(AdmissionRequest request, AdmissionListener listener) {
        return submit(request, context.clock().nanoTime(), listener);
    }

    /**
     * Submits a request for admission. The listener hears exactly one outcome, on the scheduler thread; a full
     * ingress ring (or a closed router) answers it at once on this thread.
     *
     * @param ingressAt router ingress time on the router's clock (ns); classifiers see it as {@code ingressAt()}.
     * @return the lifecycle id to report the request's lifecycle with.
     */
    public long submit(AdmissionRequest request, long ingressAt, AdmissionListener listener) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(listener, "listener");
        long lifecycleId = LIFECYCLE_IDS.incrementAndGet();
        if (closed) {
            listener.onRejected(lifecycleId, Rejections.SHUTTING_DOWN);
            return lifecycleId;
        }
        long sequence;
        try {
            if (ring.remainingCapacity() <= arrivalReserve) {
                throw InsufficientCapacityException.INSTANCE;
            }
            sequence = ring.tryNext();
        } catch (InsufficientCapacityException e) {
            listener.onRejected(lifecycleId, Rejections.INGRESS_FULL);
            return lifecycleId;
        }
        IngressEvent event = ring.get(sequence);
        event.type = IngressEvent.Type.ARRIVE;
        event.lifecycleId = lifecycleId;
        event.time = ingressAt;
        event.request = request;
        event.listener = listener;
        ring.publish(sequence);
        idle.wake();
        return lifecycleId;
    }

    /** The first response item arrived from the worker. */
    public void responding(long lifecycleId) {
        publish(IngressEvent.Type.RESPONDING, lifecycleId, 0, null);
    }

    /** The request finished successfully; {@code Completed} carries the observed context tokens, if any. */
    public void completed(long lifecycleId) {
        publish(IngressEvent.Type.COMPLETED, lifecycleId, 0, null);
    }

    /** The request finished successfully with this prompt + completion token count (from usage). */
    public void completed(long lifecycleId, long contextTokens) {
        observeContextTokens(lifecycleId, contextTokens);
        completed(lifecycleId);
    }

    /**
     * The request ends unsuccessfully: the client left, or dispatch or streaming failed. Before dispatch this
     * cancels it (a continuation is interrupted; the listener hears a cancelled rejection); after, it releases the
     * booking. Either way the classifier sees one {@code Aborted}.
     */
    public void aborted(long lifecycleId, Throwable cause) {
        publish(IngressEvent.Type.ABORTED, lifecycleId, 0, cause);
    }

    /** The engine reports this absolute context count (prompt + generated so far). */
    public void observeContextTokens(long lifecycleId, long tokens) {
        publish(IngressEvent.Type.CONTEXT_TOKENS, lifecycleId, tokens, null);
    }

    /** The engine generated this many more tokens. Report the context count first. */
    public void observeOutputTokens(long lifecycleId, long tokens) {
        publish(IngressEvent.Type.OUTPUT_TOKENS, lifecycleId, tokens, null);
    }

    /**
     * The dispatch attempt failed and should be retried: the request returns to its queue with the classification
     * it already has (the classifier is not called again) and will be dispatched anew.
     */
    public void retry(long lifecycleId) {
        publish(IngressEvent.Type.RETRY, lifecycleId, 0, null);
    }

    /** A worker rank registered (or changed its settings). */
    public void workerJoined(WorkerWithDpRank worker, long maxNumBatchedTokens, OptionalLong totalKvBlocks) {
        long sequence = ring.next();
        IngressEvent event = ring.get(sequence);
        event.type = IngressEvent.Type.WORKER_JOIN;
        event.worker = Objects.requireNonNull(worker, "worker");
        event.value = maxNumBatchedTokens;
        event.totalKvBlocks = Objects.requireNonNull(totalKvBlocks, "totalKvBlocks");
        ring.publish(sequence);
        idle.wake();
    }

    /** A worker rank deregistered; requests running on it end as their lifecycle reports say. */
    public void workerLeft(WorkerWithDpRank worker) {
        long sequence = ring.next();
        IngressEvent event = ring.get(sequence);
        event.type = IngressEvent.Type.WORKER_LEAVE;
        event.worker = Objects.requireNonNull(worker, "worker");
        ring.publish(sequence);
        idle.wake();
    }

    /**
     * An engine's KV-cache event (blocks stored, removed, cache cleared), from any thread. Events must arrive in
     * the order each engine published them.
     */
    public void kvEvent(KvEvent event) {
        Objects.requireNonNull(event, "event");
        if (closed) {
            return;
        }
        long sequence = ring.next();
        IngressEvent slot = ring.get(sequence);
        slot.type = IngressEvent.Type.KV_EVENT;
        slot.kvEvent = event;
        ring.publish(sequence);
        idle.wake();
    }

    /**
     * Starts a graceful shutdown: new arrivals and every request not yet dispatched (deferred, parked, queued) are
     * answered 503 {@code shutting_down}; dispatched requests run to their end. Follow with {@link #close()} once
     * {@code stats().live()} reaches 0 or a grace period ends.
     */
    public void drain() {
        publish(IngressEvent.Type.DRAIN, 0, 0, null);
    }

    /** A copy of the router's counters (approximate while the scheduler runs on its own thread). */
    public RouterStatistics stats() {
        return agent.statistics();
    }

    /** Stops the scheduler; unfinished requests are answered as unavailable and end with {@code Aborted}. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (runner != null) {
            runner.close();
            if (watchdog != null) {
                watchdog.close();
            }
        } else {
            invoker.close();
        }
    }

    private void publish(IngressEvent.Type type, long lifecycleId, long value, Throwable cause) {
        if (closed) {
            return;
        }
        // Lifecycle messages are never dropped: arrivals leave headroom, and the scheduler drains continuously.
        long sequence = ring.next();
        IngressEvent event = ring.get(sequence);
        event.type = type;
        event.lifecycleId = lifecycleId;
        event.value = value;
        event.cause = cause;
        ring.publish(sequence);
        idle.wake();
    }
}
