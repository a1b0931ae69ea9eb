package dev.sluice.core.scheduler;

import com.lmax.disruptor.EventPoller;
import com.lmax.disruptor.RingBuffer;
import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.host.AdmissionListener;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.host.CompositeObserver;
import dev.sluice.core.queue.PolicyQueues;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.router.RouterStatistics;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;

/**
 * The single writer of one model router's admission state. Each duty cycle reads the clock once, then handles
 * ingress messages from the ring, continuation results and wake-ups from the inbox, and due deadlines; after each
 * message it dispatches whatever became dispatchable.
 *
 * <pre>
 *   ring (arrivals, lifecycle, workers) ─┐
 *   inbox (continuations, wake-ups)    ──┼─▶ AdmissionFlow ─▶ PolicyQueues ─▶ WorkerTable ─▶ listener
 *   timer wheel (park, queue deadlines) ─┘
 * </pre>
 *
 * <p>Run by an Agrona {@code AgentRunner} on its own platform thread, or stepped by hand in tests. Not thread-safe.
 */
public final class SchedulerAgent implements Agent {
    private final String name;
    private final NanoClock clock;
    private final RingBuffer<IngressEvent> ring;
    private final EventPoller<IngressEvent> poller;
    private final EventPoller.Handler<IngressEvent> handler = this::onIngress;
    private final int eventsPerCycle;
    private final RouterSignals signals;
    private final LifecycleTable lifecycles;
    private final PolicyQueues queues;
    private final WorkerTable workers;
    private final Timers timers;
    private final Deferrals deferrals;
    private final AdmissionFlow flow;
    private final ClassifierHost host;
    private final RouterStats stats;
    private final CompositeObserver observer;
    private final PeriodicTasks periodic;
    private int eventsThisCycle;
    private boolean draining;
    private long nowNs;

    public SchedulerAgent(RouterContext context, RingBuffer<IngressEvent> ring, RouterSignals signals, ClassifierHost host,
                   WorkerTable workers, PeriodicTasks periodic, RouterStats stats) {
        this.periodic = periodic;
        this.name = "sluice-scheduler-" + context.model();
        this.clock = context.clock();
        this.ring = ring;
        this.poller = ring.newPoller();
        ring.addGatingSequences(poller.getSequence());
        this.eventsPerCycle = context.eventsPerDutyCycle();
        this.signals = signals;
        this.host = host;
        this.workers = workers;
        this.stats = stats;
        this.nowNs = clock.nanoTime();
        this.lifecycles = new LifecycleTable(signals, stats, context.maxLiveRequests());
        this.queues = new PolicyQueues(context.profile());
        this.deferrals = new Deferrals(signals, context.maxDeferrals());
        this.observer = CompositeObserver.guarding(context.observer());
        this.flow = new AdmissionFlow(host, lifecycles, queues, workers, deferrals, stats, observer, nowNs,
            context.classificationTimeoutNs());
        this.timers = flow.timers();
    }

    /** Set once by the owning router when the scheduler runs on its own thread. */
    private SchedulerWatchdog watchdog;

    public void watchdog(SchedulerWatchdog dog) {
        this.watchdog = dog;
    }

    @Override
    public int doWork() throws Exception {
        SchedulerWatchdog dog = watchdog;
        if (dog == null) {
            return cycle();
        }
        dog.cycleStarted();
        try {
            return cycle();
        } finally {
            dog.cycleEnded();
        }
    }

    private int cycle() throws Exception {
        nowNs = clock.nanoTime();
        flow.now(nowNs);
        eventsThisCycle = 0;
        poller.poll(handler);
        int work = eventsThisCycle;
        work += drainInbox();
        work += timers.poll(nowNs);
        work += periodic.run(nowNs);
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

    /** True when the ring or the inbox holds work the scheduler has not taken yet (any thread). */
    public boolean hasPendingWork() {
        return ring.getCursor() > poller.getSequence().get() || !signals.isEmpty();
    }

    public RouterStatistics statistics() {
        SchedulerWatchdog dog = watchdog;
        return stats.copy(lifecycles.size(), queues.size(), deferrals.running(), host.eventFailures,
            dog == null ? 0 : dog.overruns());
    }

    private boolean onIngress(IngressEvent event, long sequence, boolean endOfBatch) {
        try {
            route(event);
        } finally {
            event.clear();
        }
        flow.dispatchIfNeeded();
        return ++eventsThisCycle < eventsPerCycle;
    }

    private void route(IngressEvent event) {
        switch (event.type) {
            case ARRIVE -> arrive(event);
            case WORKER_JOIN -> {
                workers.join(event.worker, event.value, event.totalKvBlocks);
                observer.onWorkerJoined(nowNs, event.worker, event.value, event.totalKvBlocks);
                flow.workersChanged();
            }
            case WORKER_LEAVE -> {
                if (workers.leave(event.worker)) {
                    observer.onWorkerLeft(nowNs, event.worker);
                }
                flow.workersChanged();
            }
            case KV_EVENT -> {
                workers.apply(event.kvEvent);
                observer.onKvEvent(nowNs, event.kvEvent);
            }
            case DRAIN -> drain();
            default -> lifecycle(event);
        }
    }

    /** Shutting down: refuse arrivals, answer every request not yet dispatched; dispatched ones run on. */
    private void drain() {
        draining = true;
        for (LiveRequest request : lifecycles.snapshot()) {
            if (request.phase != LifecyclePhase.SENT && request.phase != LifecyclePhase.RESPONDING) {
                lifecycles.notifyRejected(request, Rejections.SHUTTING_DOWN);
                flow.abort(request, Rejections.SHUTTING_DOWN);
            }
        }
    }

    private void arrive(IngressEvent event) {
        AdmissionRequest request = event.request;
        AdmissionListener listener = event.listener;
        if (draining) {
            refuse(event, Rejections.SHUTTING_DOWN);
            return;
        }
        if (lifecycles.isLive(request.requestId())) {
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
        stats.arrived++;
        LiveRequest record = lifecycles.register(event.lifecycleId, request, event.time, listener);
        observer.onArrived(nowNs, record);
        flow.classify(record);
    }

    private void lifecycle(IngressEvent event) {
        LiveRequest record = lifecycles.get(event.lifecycleId);
        if (record == null) {
            return;
        }
        switch (event.type) {
            case RESPONDING -> flow.responding(record);
            case COMPLETED -> flow.completed(record);
            case ABORTED -> flow.abort(record, event.cause);
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
            if (signal.wake()) {
                LiveRequest record = lifecycles.get(signal.lifecycleId());
                if (record != null) {
                    flow.onWake(record, signal.wakeRejection());
                }
            } else {
                onDeferralDone(signal);
            }
            flow.dispatchIfNeeded();
        }
        return handled;
    }

    private void onDeferralDone(RouterSignals.Signal signal) {
        LiveRequest record = signal.record();
        deferrals.finished(record);
        if (record.phase == LifecyclePhase.DEFERRED && record.lifecycleId == signal.lifecycleId()) {
            flow.onDeferralResult(record, signal.result(), signal.failure());
        } else {
            stats.staleResults++;
            if (record.phase == LifecyclePhase.TERMINAL) {
                lifecycles.recycle(record);
            }
        }
    }

    private void refuse(IngressEvent event, AdmissionError error) {
        stats.rejected++;
        observer.onRefused(nowNs, event.lifecycleId, event.request, error);
        try {
            event.listener.onRejected(event.lifecycleId, error);
        } catch (RuntimeException e) {
            stats.listenerFailures++;
        }
    }
}
