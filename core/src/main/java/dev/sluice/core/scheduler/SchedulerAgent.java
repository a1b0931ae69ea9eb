package dev.sluice.core.scheduler;

import com.lmax.disruptor.EventPoller;
import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.AdmissionListener;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.host.SchedulerObserver;
import dev.sluice.core.host.WorkerLoad;
import dev.sluice.core.queue.PolicyQueues;
import java.util.OptionalLong;
import org.agrona.concurrent.NanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single writer of one model router's admission state. Each duty cycle reads the clock once, expires the queue
 * deadlines that passed since the last cycle, then handles ingress messages from the ring, continuation results and
 * wake-ups from the inbox, due classification deadlines and the classifier's periodic tasks; after each message it
 * dispatches whatever became dispatchable. A policy reload ends the cycle's ring messages and is swapped in at the end
 * of the cycle, before its last dispatch pass ({@link PolicySwap}). Expiring first makes an expiry's
 * {@code Retry-After} (its class's backlog) independent of how the cycle's messages are batched, so a replay, which
 * runs the router after every recorded input, reproduces it.
 *
 * <pre>
 *   ring (arrivals, lifecycle, workers, KV, load)─┐
 *   inbox (continuations, wake-ups)        ──┼─▶ AdmissionFlow ─▶ PolicyQueues ─▶ WorkerTable ─▶ listener
 *   timer wheel (classification deadlines) ─┤        ▲ ClassifyStage (verdicts)
 *   queue deadlines (first), periodic tasks ┘
 * </pre>
 *
 * <p>A message whose handling throws fails the request it is about (a sanitized 500, or an abort once dispatched),
 * is counted in {@code SCHEDULER_ERRORS} and logged, and the ring's sequence moves on, as the Disruptor's
 * {@code BatchEventProcessor} does: one bad message never stops the others. The agent builds only its own
 * single-threaded state; everything configured or shared comes in its {@link SchedulerParts}.
 *
 * <p>Run by an Agrona {@code AgentRunner} on its own platform thread, or stepped by an {@code AgentInvoker} in tests
 * and replays. Not thread-safe, except {@link #hasPendingWork()}.
 */
public final class SchedulerAgent implements CombiningScheduler.Scheduled {
    private static final Logger LOG = LoggerFactory.getLogger(SchedulerAgent.class);

    private final String name;
    private final NanoClock clock;
    private final IngressProxy ingress;
    private final EventPoller<IngressEvent> poller;
    private final EventPoller.Handler<IngressEvent> handler = this::onIngress;
    /** The slot of an arrival a producer hands over without the ring. */
    private final IngressEvent direct = new IngressEvent();
    private final int eventsPerCycle;
    private final RouterSignals signals;
    private final RouterCounters counters;
    private final LifecycleTable lifecycles;
    private final PolicyQueues queues;
    private final WorkerTable workers;
    private final Timers timers;
    private final Deferrals deferrals;
    private final AdmissionFlow flow;
    private final SchedulerObserver observer;
    private final PeriodicTasks periodic;
    private final SchedulerWatchdog watchdog;
    private final PolicySwap policy;
    private int eventsThisCycle;
    private long cycleFailures;
    private boolean draining;
    private long nowNs;

    /**
     * @param watchdog stamps each duty cycle for the router's watchdog thread, or {@code null} (a stepped router).
     */
    public SchedulerAgent(SchedulerParts parts, SchedulerWatchdog watchdog) {
        this.name = roleName(parts.model());
        this.clock = parts.clock();
        this.ingress = parts.ingress();
        this.poller = ingress.ring().newPoller();
        ingress.ring().addGatingSequences(poller.getSequence());
        this.eventsPerCycle = parts.eventsPerDutyCycle();
        this.signals = parts.signals();
        this.counters = parts.counters();
        this.workers = parts.workers();
        this.observer = parts.observer();
        this.periodic = parts.periodic();
        this.watchdog = watchdog;
        this.nowNs = clock.nanoTime();
        this.lifecycles = new LifecycleTable(signals, counters, parts.maxLiveRequests(), parts.profile(),
            parts.classifier());
        this.queues = new PolicyQueues(parts.profile());
        this.deferrals = new Deferrals(signals, counters, parts.maxDeferrals());
        this.timers = new Timers(nowNs);
        DrainRate drain = new DrainRate(parts.profile().classes().size());
        ClassifyStage stage = new ClassifyStage(lifecycles, workers, deferrals, timers, counters,
            observer, drain, parts.classificationTimeoutNs());
        this.flow = new AdmissionFlow(stage, lifecycles, queues, workers, timers, deferrals,
            counters, observer, drain);
        this.policy = new PolicySwap(parts.model(), lifecycles, flow, drain, observer);
        TenantSharesTask.registerIfFair(flow::queues, observer, periodic, clock);
    }

    /** The scheduler thread's name for a model. */
    public static String roleName(String model) {
        return "sluice-scheduler-" + model;
    }

    /**
     * One duty cycle. Nothing escapes it: Agrona's runner and invoker rethrow an {@code Error}, which would end the
     * scheduler thread (or fail every step of a manual router), so a failure that got past every narrower guard is
     * counted in {@code SCHEDULER_ERRORS}, logged, and the next cycle goes on where this one stopped.
     */
    @Override
    public int doWork() {
        return guardedCycle(null);
    }

    /**
     * One duty cycle, as {@link #doWork()}, that first handles this arrival as the ring's next message: a combining
     * producer holding the role found the ring and the inbox empty. It takes a ring message's path (in a slot of the
     * agent's own), so it is refused, registered, classified, failed and journaled the same way.
     */
    @Override
    public int doWork(long lifecycleId, long ingressAt, AdmissionRequest request, AdmissionListener listener) {
        direct.arrival(lifecycleId, ingressAt, request, listener);
        return guardedCycle(direct);
    }

    private int guardedCycle(IngressEvent first) {
        SchedulerWatchdog dog = watchdog;
        if (dog != null) {
            dog.cycleStarted();
        }
        try {
            return cycle(first);
        } catch (Throwable t) {
            counters.increment(RouterCounters.Counter.SCHEDULER_ERRORS);
            if (cycleFailures++ % 10_000 == 0) {
                LOG.error("scheduler {} failed a duty cycle ({} so far); serving on", name, cycleFailures, t);
            }
            return 1;
        } finally {
            if (dog != null) {
                dog.cycleEnded();
            }
        }
    }

    /** One duty cycle; {@code first}, when not null, is handled before the ring's messages. */
    private int cycle(IngressEvent first) {
        nowNs = clock.nanoTime();
        flow.now(nowNs);
        eventsThisCycle = 0;
        // Before any message: the deadlines passed before this instant, whatever the instant brings.
        int work = flow.expireQueued();
        if (first != null && first.value == NOW) {
            first.value = nowNs;
        }
        if (first == null || onIngress(first, -1, true)) {
            try {
                poller.poll(handler);
            } catch (Exception e) {
                // The handler contains every failure, so only the poller itself can get here.
                throw new IllegalStateException("the ingress poller failed", e);
            }
        }
        work += eventsThisCycle;
        work += drainInbox();
        work += timers.poll(nowNs, flow);
        work += periodic.run(nowNs);
        // A reload read off the ring this cycle: swapped last, so the next cycle runs wholly under the new policy.
        work += policy.applyPending(nowNs);
        work += flow.dispatchIfNeeded();
        return work;
    }

    @Override
    public String roleName() {
        return name;
    }

    /** Answers every unfinished request as unavailable and ends its lifecycle; the router is closing. */
    @Override
    public void onClose() {
        nowNs = clock.nanoTime();
        flow.now(nowNs);
        for (LiveRequest request : lifecycles.snapshot()) {
            lifecycles.notifyRejected(request, Rejections.SHUTTING_DOWN);
            flow.abort(request, Rejections.SHUTTING_DOWN);
        }
    }

    @Override
    public boolean hasPendingWork() {
        return ingress.hasPending(poller.getSequence().get()) || !signals.isEmpty();
    }

    @Override
    public boolean hasTimedWork() {
        return timers.armed() > 0 || periodic.hasTasks() || flow.queues().nextDueAt() != ClassifyRequest.NO_DEADLINE;
    }

    private boolean onIngress(IngressEvent event, long sequence, boolean endOfBatch) {
        try {
            route(event);
            flow.dispatchIfNeeded();
        } catch (Throwable t) {
            try {
                failed(event, t);
            } catch (Throwable again) {
                // The poller must see this message handled, or it would deliver it again every cycle.
                counters.increment(RouterCounters.Counter.SCHEDULER_ERRORS);
            }
        } finally {
            event.clear();
        }
        return ++eventsThisCycle < eventsPerCycle && !policy.pending();
    }

    private void route(IngressEvent event) {
        switch (event.type) {
            case ARRIVE -> arrive(event);
            case WORKER_JOIN -> {
                OptionalLong blocks = event.value2 < 0 ? OptionalLong.empty() : OptionalLong.of(event.value2);
                workers.join(event.worker(), event.value, blocks);
                observer.onWorkerJoined(nowNs, event.worker(), event.value, blocks);
                flow.workersChanged();
            }
            case WORKER_LEAVE -> {
                if (workers.leave(event.worker())) {
                    observer.onWorkerLeft(nowNs, event.worker());
                }
                flow.workersChanged();
            }
            case KV_EVENT -> {
                workers.apply(event.kvEvent());
                observer.onKvEvent(nowNs, event.kvEvent());
            }
            case WORKER_LOAD -> {
                WorkerLoad load = event.workerLoad();
                if (workers.report(load)) {
                    observer.onWorkerLoad(nowNs, load);
                    flow.workerChanged(load.worker());
                }
            }
            case REMOTE_BOOKED, REMOTE_PREFILL_DONE, REMOTE_RELEASED, REMOTE_GONE -> remote(event);
            case DRAIN -> drain();
            case RELOAD -> policy.requested(event.policyReload());
            default -> lifecycle(event);
        }
    }

    /** Another router replica's booking, its first token, its end, or the replica gone. */
    private void remote(IngressEvent event) {
        switch (event.type) {
            case REMOTE_BOOKED -> workers.bookRemote(event.remoteBooking());
            case REMOTE_GONE -> {
                if (workers.forgetReplica(event.replica())) {
                    flow.workersChanged();
                }
            }
            default -> {
                WorkerWithDpRank lighter = workers.unbookRemote(event.replica(), event.lifecycleId,
                    event.type == IngressEvent.Type.REMOTE_RELEASED);
                if (lighter != null) {
                    flow.workerChanged(lighter);
                }
            }
        }
        counters.set(RouterCounters.Counter.REMOTE_BOOKINGS, workers.remoteBookings());
    }

    /** Shutting down: refuse arrivals, answer every request not yet dispatched; dispatched ones run on. */
    private void drain() {
        draining = true;
        for (LiveRequest request : lifecycles.snapshot()) {
            if (!request.phase().dispatched()) {
                lifecycles.notifyRejected(request, Rejections.SHUTTING_DOWN);
                flow.abort(request, Rejections.SHUTTING_DOWN);
            }
        }
    }

    private void arrive(IngressEvent event) {
        if (draining) {
            refuse(event, Rejections.SHUTTING_DOWN);
            return;
        }
        if (lifecycles.isLive(event.request.requestId())) {
            refuse(event, Rejections.DUPLICATE_ID);
            return;
        }
        if (lifecycles.isFull()) {
            refuse(event, Rejections.TOO_MANY_LIVE);
            return;
        }
        AdmissionError veto = observer.arrivalVeto();
        if (veto != null) {
            refuse(event, veto);
            return;
        }
        counters.increment(RouterCounters.Counter.ARRIVED);
        LiveRequest record = lifecycles.register(event.lifecycleId, event.request, event.value, event.listener);
        observer.onArrived(nowNs, record);
        flow.arrived(record);
    }

    private void lifecycle(IngressEvent event) {
        LiveRequest record = lifecycles.get(event.lifecycleId);
        if (record == null) {
            return;
        }
        switch (event.type) {
            case RESPONDING -> flow.responding(record);
            case COMPLETED -> flow.completed(record);
            case ABORTED -> flow.abort(record, event.cause());
            case CONTEXT_TOKENS -> record.observeContextTokens(event.value);
            case OUTPUT_TOKENS -> record.observeOutputTokens(event.value);
            case RETRY -> flow.retry(record);
            default -> throw new IllegalStateException("not a lifecycle message: " + event.type);
        }
    }

    private int drainInbox() {
        int handled = 0;
        RouterSignals.Signal signal;
        while (handled < eventsPerCycle && (signal = signals.poll()) != null) {
            handled++;
            LiveRequest record = signal.wake() ? lifecycles.get(signal.lifecycleId()) : signal.record();
            try {
                if (signal.wake()) {
                    if (record != null) {
                        flow.onWake(record, signal.wakeRejection());
                    }
                } else {
                    onDeferralDone(signal);
                }
                flow.dispatchIfNeeded();
            } catch (Throwable t) {
                if (record != null && record.lifecycleId == signal.lifecycleId()) {
                    flow.contain(record, t);
                } else {
                    counters.increment(RouterCounters.Counter.SCHEDULER_ERRORS);
                    LOG.error("the scheduler failed handling a signal of lifecycle {}", signal.lifecycleId(), t);
                }
            }
        }
        return handled;
    }

    private void onDeferralDone(RouterSignals.Signal signal) {
        LiveRequest record = signal.record();
        deferrals.finished(record);
        if (record.phase() == LifecyclePhase.DEFERRED && record.lifecycleId == signal.lifecycleId()) {
            flow.onDeferralResult(record, signal.result(), signal.failure());
        } else {
            counters.increment(RouterCounters.Counter.STALE_RESULTS);
            if (record.phase() == LifecyclePhase.TERMINAL) {
                lifecycles.recycle(record);
            }
        }
    }

    private void refuse(IngressEvent event, AdmissionError error) {
        counters.increment(RouterCounters.Counter.REJECTED);
        observer.onRefused(nowNs, event.lifecycleId, event.request, error);
        AdmissionListener listener = event.listener;
        // Answered once: should the listener throw past this catch, the failure path finds no listener to call.
        event.listener = null;
        try {
            listener.onRejected(event.lifecycleId, error);
        } catch (Throwable e) {
            counters.increment(RouterCounters.Counter.LISTENER_FAILURES);
        }
    }

    /**
     * Handling {@code event} threw: the request it is about fails (a registered one through the flow; an arrival that
     * got no lifecycle is refused with a sanitized 500), and the ring moves on.
     */
    private void failed(IngressEvent event, Throwable error) {
        LiveRequest record = lifecycles.get(event.lifecycleId);
        if (record != null) {
            flow.contain(record, error);
            return;
        }
        counters.increment(RouterCounters.Counter.SCHEDULER_ERRORS);
        LOG.error("the scheduler failed handling a {} message; serving on", event.type, error);
        AdmissionListener listener = event.listener;
        if (event.type == IngressEvent.Type.ARRIVE && listener != null) {
            event.listener = null;
            AdmissionError failure = Rejections.schedulerFailed(error);
            try {
                counters.increment(RouterCounters.Counter.REJECTED);
                observer.onRefused(nowNs, event.lifecycleId, event.request, failure);
                listener.onRejected(event.lifecycleId, failure);
            } catch (Throwable again) {
                counters.increment(RouterCounters.Counter.LISTENER_FAILURES);
                LOG.error("could not answer the failed arrival {}", event.lifecycleId, again);
            }
        }
    }
}
