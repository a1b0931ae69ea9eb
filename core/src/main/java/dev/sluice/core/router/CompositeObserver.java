package dev.sluice.core.router;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.PolicyClassSpec;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * Installs several observers as one (the journal and the metrics, say): each callback goes to every observer in
 * the order given. The array is fixed at construction, so forwarding allocates nothing. An observer that throws
 * stops the callback for the ones after it (the router's guard counts and logs it): put the journal first.
 * Called on the scheduler thread, like every observer; holds no state of its own.
 */
public final class CompositeObserver implements SchedulerObserver {
    private final SchedulerObserver[] observers;

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

    /** The observers, in calling order. */
    public List<SchedulerObserver> observers() {
        return List.of(observers);
    }

    @Override
    public void onArrived(long nowNs, RequestView request) {
        for (SchedulerObserver o : observers) {
            o.onArrived(nowNs, request);
        }
    }

    @Override
    public void onRefused(long nowNs, long lifecycleId, AdmissionRequest request, AdmissionError error) {
        for (SchedulerObserver o : observers) {
            o.onRefused(nowNs, lifecycleId, request, error);
        }
    }

    @Override
    public void onClassified(long nowNs, RequestView request, Classification.Kind decision) {
        for (SchedulerObserver o : observers) {
            o.onClassified(nowNs, request, decision);
        }
    }

    @Override
    public void onEnqueued(long nowNs, RequestView request, PolicyClassSpec policyClass) {
        for (SchedulerObserver o : observers) {
            o.onEnqueued(nowNs, request, policyClass);
        }
    }

    @Override
    public void onRejected(long nowNs, RequestView request, AdmissionError error) {
        for (SchedulerObserver o : observers) {
            o.onRejected(nowNs, request, error);
        }
    }

    @Override
    public void onDispatched(long nowNs, RequestView request, WorkerWithDpRank worker) {
        for (SchedulerObserver o : observers) {
            o.onDispatched(nowNs, request, worker);
        }
    }

    @Override
    public void onResponding(long nowNs, RequestView request) {
        for (SchedulerObserver o : observers) {
            o.onResponding(nowNs, request);
        }
    }

    @Override
    public void onCompleted(long nowNs, RequestView request, long contextTokens) {
        for (SchedulerObserver o : observers) {
            o.onCompleted(nowNs, request, contextTokens);
        }
    }

    @Override
    public void onAborted(long nowNs, RequestView request, Throwable cause) {
        for (SchedulerObserver o : observers) {
            o.onAborted(nowNs, request, cause);
        }
    }

    @Override
    public void onRetried(long nowNs, RequestView request) {
        for (SchedulerObserver o : observers) {
            o.onRetried(nowNs, request);
        }
    }

    @Override
    public void onWorkerJoined(long nowNs, WorkerWithDpRank worker, long maxNumBatchedTokens,
                               OptionalLong totalKvBlocks) {
        for (SchedulerObserver o : observers) {
            o.onWorkerJoined(nowNs, worker, maxNumBatchedTokens, totalKvBlocks);
        }
    }

    @Override
    public void onWorkerLeft(long nowNs, WorkerWithDpRank worker) {
        for (SchedulerObserver o : observers) {
            o.onWorkerLeft(nowNs, worker);
        }
    }

    /** The first observer's veto wins. */
    @Override
    public AdmissionError arrivalVeto() {
        for (SchedulerObserver o : observers) {
            AdmissionError veto = o.arrivalVeto();
            if (veto != null) {
                return veto;
            }
        }
        return null;
    }
}
