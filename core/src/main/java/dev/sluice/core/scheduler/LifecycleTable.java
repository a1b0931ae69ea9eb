package dev.sluice.core.scheduler;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.host.AdmissionListener;
import dev.sluice.core.host.AdmissionRequest;
import java.util.ArrayList;
import java.util.List;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.Object2ObjectHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live lifecycles of one model router, by lifecycle id and by request id, and the pool of records they reuse.
 * Every phase change goes through {@link #moveTo}; the live, queued and parked gauges are published as they change,
 * so a reader on another thread never sees a request end before it sees it counted.
 * One live lifecycle per request id; the id is free again once the terminal event has been delivered. Also the
 * one place that calls the submitter's {@link AdmissionListener}, containing its failures.
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
final class LifecycleTable {
    private static final Logger LOG = LoggerFactory.getLogger(LifecycleTable.class);

    private final Long2ObjectHashMap<LiveRequest> byLifecycle = new Long2ObjectHashMap<>();
    private final Object2ObjectHashMap<String, LiveRequest> byRequestId = new Object2ObjectHashMap<>();
    private final int[] inPhase = new int[LifecyclePhase.values().length];
    private final RouterSignals signals;
    private final RouterCounters counters;
    private final int maxLive;
    private LiveRequest[] free = new LiveRequest[64];
    private int freeCount;

    private PolicyProfile profile;
    private ClassifierHost host;

    LifecycleTable(RouterSignals signals, RouterCounters counters, int maxLive, PolicyProfile profile,
                   ClassifierHost host) {
        this.signals = signals;
        this.counters = counters;
        this.maxLive = maxLive;
        this.profile = profile;
        this.host = host;
    }

    /** A policy reload: class names from {@code next}; requests registered from now on go to {@code classifier}. */
    void policy(PolicyProfile next, ClassifierHost classifier) {
        this.profile = next;
        this.host = classifier;
    }

    /** The classifier instance new requests are registered under. */
    ClassifierHost host() {
        return host;
    }

    /** The name of the class the request is queued in, else the class it asked for, else {@code null}. */
    private String className(LiveRequest record) {
        int index = record.classIndex();
        return index >= 0 && index < profile.classes().size() ? profile.classes().get(index).name()
            : record.policyClass();
    }

    /** True when a lifecycle with this request id is live. */
    boolean isLive(String requestId) {
        return byRequestId.containsKey(requestId);
    }

    /** True when another lifecycle would exceed the live limit. */
    boolean isFull() {
        return byLifecycle.size() >= maxLive;
    }

    int size() {
        return byLifecycle.size();
    }

    /** Starts a lifecycle; the caller has checked {@link #isLive} and {@link #isFull}. */
    LiveRequest register(long lifecycleId, AdmissionRequest request, long ingressAt, AdmissionListener listener) {
        LiveRequest record = freeCount > 0 ? free[--freeCount] : new LiveRequest(signals);
        free[freeCount] = null;
        record.begin(lifecycleId, request, ingressAt, listener);
        record.host = host;
        host.attach();
        moveTo(record, LifecyclePhase.REGISTERED);
        byLifecycle.put(lifecycleId, record);
        byRequestId.put(record.requestId(), record);
        counters.set(RouterCounters.Counter.LIVE, byLifecycle.size());
        return record;
    }

    /**
     * Moves a record to its next phase: the one transition method, which refuses an illegal move (see
     * {@link LifecyclePhase#canMoveTo}) and keeps the count of records in each phase.
     */
    void moveTo(LiveRequest record, LifecyclePhase next) {
        LifecyclePhase previous = record.moveTo(next);
        if (previous != LifecyclePhase.TERMINAL) {
            inPhase[previous.ordinal()]--;
        }
        if (next != LifecyclePhase.TERMINAL) {
            inPhase[next.ordinal()]++;
        }
        if (previous == LifecyclePhase.QUEUED || next == LifecyclePhase.QUEUED) {
            counters.set(RouterCounters.Counter.QUEUED, inPhase[LifecyclePhase.QUEUED.ordinal()]);
        }
        if (previous == LifecyclePhase.PARKED || next == LifecyclePhase.PARKED) {
            counters.set(RouterCounters.Counter.PARKED_NOW, inPhase[LifecyclePhase.PARKED.ordinal()]);
        }
    }

    /** Live records in {@code phase} now; ended records are not counted ({@code TERMINAL} is always 0). */
    int inPhase(LifecyclePhase phase) {
        return inPhase[phase.ordinal()];
    }

    /** The live lifecycle, or {@code null} when it ended (or never existed). */
    LiveRequest get(long lifecycleId) {
        return byLifecycle.get(lifecycleId);
    }

    /** Ends the lifecycle's registration; the request id may be used again. */
    void remove(LiveRequest record) {
        if (byLifecycle.remove(record.lifecycleId) != null) {
            record.host.detach();
        }
        byRequestId.remove(record.requestId());
        counters.set(RouterCounters.Counter.LIVE, byLifecycle.size());
    }

    /** Returns a terminated record to the pool. */
    void recycle(LiveRequest record) {
        record.clear();
        if (freeCount == free.length) {
            free = java.util.Arrays.copyOf(free, free.length * 2);
        }
        free[freeCount++] = record;
    }

    /** Every live record (for shutdown). */
    List<LiveRequest> snapshot() {
        return new ArrayList<>(byLifecycle.values());
    }

    /** Tells the submitter where to send the request; false if its listener failed. */
    boolean notifyDispatched(LiveRequest record, WorkerState worker, long nowNs) {
        AdmissionListener listener = record.listener;
        try {
            listener.onDispatched(record.lifecycleId, worker.id, className(record), nowNs - record.ingressAt());
            return true;
        } catch (Throwable e) {
            counters.increment(RouterCounters.Counter.LISTENER_FAILURES);
            LOG.error("Admission listener failed on dispatch of {}; aborting it", record, e);
            return false;
        }
    }

    /** Answers the submitter with a rejection, once; later calls for the same lifecycle do nothing. */
    void notifyRejected(LiveRequest record, AdmissionError error) {
        AdmissionListener listener = record.listener;
        if (listener == null) {
            return;
        }
        record.listener = null;
        try {
            listener.onRejected(record.lifecycleId, error, className(record));
        } catch (Throwable e) {
            counters.increment(RouterCounters.Counter.LISTENER_FAILURES);
            LOG.error("Admission listener failed on rejection of {}", record, e);
        }
    }

    /**
     * Asks the submitter to give up a dispatched request (preemption); true when it did, and then it is never called
     * again for this lifecycle. A failing listener counts as a refusal.
     */
    boolean notifyPreempted(LiveRequest record, AdmissionError error) {
        AdmissionListener listener = record.listener;
        if (listener == null) {
            return false;
        }
        try {
            if (listener.onPreempted(record.lifecycleId, error)) {
                record.listener = null;
                return true;
            }
            return false;
        } catch (Throwable e) {
            counters.increment(RouterCounters.Counter.LISTENER_FAILURES);
            LOG.error("Admission listener failed on preemption of {}; not preempted", record, e);
            return false;
        }
    }

    /** The live records, in no defined order (no allocation: Agrona's cached iterator). */
    Iterable<LiveRequest> live() {
        return byLifecycle.values();
    }

    /** The detail behind a sanitized classifier failure goes to the operator's log only. */
    void logSanitized(LiveRequest record, AdmissionError error) {
        LOG.warn("request classifier failure sanitized from response: {}: {}", record, error.diagnostic(),
            error.getCause());
    }
}
