package dev.sluice.core.host;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.PolicyClassSpec;
import dev.sluice.core.kv.KvEvent;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Installs several observers as one (the journal and the metrics, say): each callback goes to every observer in
 * the order given. The array is fixed at construction, so forwarding allocates nothing. An observer that throws is
 * contained: the failure is counted and logged (rate-limited), the other observers still get the callback, and
 * the admission goes on. That includes every {@code Error}: an {@code InternalError} the JVM raises, asynchronously,
 * when a write to a memory-mapped file faults (the journal's, on a full disk), and an observer's own
 * {@code AssertionError} or {@code StackOverflowError}, which would otherwise end the scheduler thread. The router
 * wraps its observer in one of these, so a broken journal or metrics sink never breaks an admission. Called on the
 * scheduler thread, like every observer.
 */
public final class CompositeObserver implements SchedulerObserver {
    private static final Logger LOG = LoggerFactory.getLogger(CompositeObserver.class);

    private final SchedulerObserver[] observers;
    private long failures;

    private CompositeObserver(SchedulerObserver[] observers) {
        this.observers = observers;
    }

    /** One observer for all of these; a single one is returned as it is. */
    public static SchedulerObserver of(SchedulerObserver... observers) {
        for (SchedulerObserver observer : observers) {
            Objects.requireNonNull(observer, "observer");
        }
        return observers.length == 1 ? observers[0] : new CompositeObserver(observers.clone());
    }

    /**
     * {@code observer} with every callback's failure contained: how the router installs its observer. A composite
     * already contains its observers' failures and {@link SchedulerObserver#NONE} has none, so those come back as
     * they are (the router's default path then makes no fan-out at all); any other observer is wrapped.
     */
    public static SchedulerObserver guarding(SchedulerObserver observer) {
        Objects.requireNonNull(observer, "observer");
        if (observer == SchedulerObserver.NONE || observer instanceof CompositeObserver) {
            return observer;
        }
        return new CompositeObserver(new SchedulerObserver[] {observer});
    }

    /** Observer callbacks that threw, so far. */
    public long failures() {
        return failures;
    }

    private void failed(String callback, Throwable e) {
        if (failures++ % 10_000 == 0) {
            LOG.error("scheduler observer failed in {} ({} failures so far)", callback, failures, e);
        }
    }

    /**
     * Gives one callback to every observer in order, containing each failure. The callbacks passed here capture
     * nothing, so each is a constant: once this method inlines into the {@code onX} that passes it, C2 knows its exact
     * class and inlines the call, which leaves the loop as cheap as one written out per callback, and allocates
     * nothing. {@code number} carries a callback's {@code long} argument unboxed; callbacks that have none pass 0.
     */
    private <A, B> void fanOut(String name, long nowNs, long number, A a, B b, Callback<A, B> callback) {
        for (SchedulerObserver o : observers) {
            try {
                callback.call(o, nowNs, number, a, b);
            } catch (Throwable e) {
                failed(name, e);
            }
        }
    }

    /** One {@link SchedulerObserver} callback with its arguments spread out, so one fan-out serves them all. */
    @FunctionalInterface
    private interface Callback<A, B> {
        void call(SchedulerObserver observer, long nowNs, long number, A a, B b);
    }

    /** The observers, in calling order. */
    public List<SchedulerObserver> observers() {
        return List.of(observers);
    }

    @Override
    public void onArrived(long nowNs, RequestView request) {
        fanOut("onArrived", nowNs, 0L, request, null, (o, now, unused, r, none) -> o.onArrived(now, r));
    }

    @Override
    public void onRefused(long nowNs, long lifecycleId, AdmissionRequest request, AdmissionError error) {
        fanOut("onRefused", nowNs, lifecycleId, request, error, (o, now, id, r, e) -> o.onRefused(now, id, r, e));
    }

    @Override
    public void onClassified(long nowNs, RequestView request, Classification.Kind decision) {
        fanOut("onClassified", nowNs, 0L, request, decision, (o, now, unused, r, d) -> o.onClassified(now, r, d));
    }

    @Override
    public void onEnqueued(long nowNs, RequestView request, PolicyClassSpec policyClass) {
        fanOut("onEnqueued", nowNs, 0L, request, policyClass, (o, now, unused, r, c) -> o.onEnqueued(now, r, c));
    }

    @Override
    public void onRejected(long nowNs, RequestView request, AdmissionError error) {
        fanOut("onRejected", nowNs, 0L, request, error, (o, now, unused, r, e) -> o.onRejected(now, r, e));
    }

    @Override
    public void onDispatched(long nowNs, RequestView request, WorkerWithDpRank worker) {
        fanOut("onDispatched", nowNs, 0L, request, worker, (o, now, unused, r, w) -> o.onDispatched(now, r, w));
    }

    @Override
    public void onResponding(long nowNs, RequestView request) {
        fanOut("onResponding", nowNs, 0L, request, null, (o, now, unused, r, none) -> o.onResponding(now, r));
    }

    @Override
    public void onCompleted(long nowNs, RequestView request, long contextTokens) {
        fanOut("onCompleted", nowNs, contextTokens, request, null,
            (o, now, tokens, r, none) -> o.onCompleted(now, r, tokens));
    }

    @Override
    public void onAborted(long nowNs, RequestView request, Throwable cause) {
        fanOut("onAborted", nowNs, 0L, request, cause, (o, now, unused, r, c) -> o.onAborted(now, r, c));
    }

    @Override
    public void onRetried(long nowNs, RequestView request) {
        fanOut("onRetried", nowNs, 0L, request, null, (o, now, unused, r, none) -> o.onRetried(now, r));
    }

    @Override
    public void onWorkerJoined(long nowNs, WorkerWithDpRank worker, long maxNumBatchedTokens,
                               OptionalLong totalKvBlocks) {
        fanOut("onWorkerJoined", nowNs, maxNumBatchedTokens, worker, totalKvBlocks,
            (o, now, batched, w, blocks) -> o.onWorkerJoined(now, w, batched, blocks));
    }

    @Override
    public void onWorkerLeft(long nowNs, WorkerWithDpRank worker) {
        fanOut("onWorkerLeft", nowNs, 0L, worker, null, (o, now, unused, w, none) -> o.onWorkerLeft(now, w));
    }

    @Override
    public void onKvEvent(long nowNs, KvEvent event) {
        fanOut("onKvEvent", nowNs, 0L, event, null, (o, now, unused, e, none) -> o.onKvEvent(now, e));
    }

    @Override
    public void onWorkerLoad(long nowNs, WorkerLoad load) {
        fanOut("onWorkerLoad", nowNs, 0L, load, null, (o, now, unused, l, none) -> o.onWorkerLoad(now, l));
    }

    @Override
    public void onTenantShares(long nowNs, int classIndex, int activeTenants, double[] topShares) {
        fanOut("onTenantShares", nowNs, ((long) classIndex << 32) | (activeTenants & 0xffffffffL), topShares, null,
            (o, now, packed, shares, none) -> o.onTenantShares(now, (int) (packed >>> 32), (int) packed, shares));
    }

    @Override
    public void onPolicyReloaded(long nowNs, PolicyChange change) {
        fanOut("onPolicyReloaded", nowNs, 0L, change, null, (o, now, unused, c, none) -> o.onPolicyReloaded(now, c));
    }

    @Override
    public void onRequeued(long nowNs, RequestView request, PolicyClassSpec from, PolicyClassSpec to) {
        PolicyClassSpec[] classes = {from, to};
        fanOut("onRequeued", nowNs, 0L, request, classes,
            (o, now, unused, r, c) -> o.onRequeued(now, r, c[0], c[1]));
    }

    /** The first observer's veto wins. */
    @Override
    public AdmissionError arrivalVeto() {
        for (SchedulerObserver o : observers) {
            try {
                AdmissionError veto = o.arrivalVeto();
                if (veto != null) {
                    return veto;
                }
            } catch (Throwable e) {
                // A veto that cannot be decided admits: a broken observer must not refuse all traffic.
                failed("arrivalVeto", e);
            }
        }
        return null;
    }
}
