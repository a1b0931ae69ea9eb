package dev.sluice.core.router;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.PolicyClassSpec;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Forwards to the configured observer and contains its failures, so a broken journal or metrics sink never breaks
 * an admission. Owned by the scheduler thread.
 */
final class GuardedObserver implements SchedulerObserver {
    private static final Logger LOG = LoggerFactory.getLogger(GuardedObserver.class);

    private final SchedulerObserver delegate;
    long failures;

    GuardedObserver(SchedulerObserver delegate) {
        this.delegate = delegate;
    }

    private void failed(String callback, RuntimeException e) {
        if (failures++ % 10_000 == 0) {
            LOG.error("scheduler observer failed in {} ({} failures so far)", callback, failures, e);
        }
    }

    @Override
    public void onArrived(long nowNs, RequestView request) {
        try {
            delegate.onArrived(nowNs, request);
        } catch (RuntimeException e) {
            failed("onArrived", e);
        }
    }

    @Override
    public void onRefused(long nowNs, long lifecycleId, AdmissionRequest request, AdmissionError error) {
        try {
            delegate.onRefused(nowNs, lifecycleId, request, error);
        } catch (RuntimeException e) {
            failed("onRefused", e);
        }
    }

    @Override
    public void onClassified(long nowNs, RequestView request, Classification.Kind decision) {
        try {
            delegate.onClassified(nowNs, request, decision);
        } catch (RuntimeException e) {
            failed("onClassified", e);
        }
    }

    @Override
    public void onEnqueued(long nowNs, RequestView request, PolicyClassSpec policyClass) {
        try {
            delegate.onEnqueued(nowNs, request, policyClass);
        } catch (RuntimeException e) {
            failed("onEnqueued", e);
        }
    }

    @Override
    public void onRejected(long nowNs, RequestView request, AdmissionError error) {
        try {
            delegate.onRejected(nowNs, request, error);
        } catch (RuntimeException e) {
            failed("onRejected", e);
        }
    }

    @Override
    public void onDispatched(long nowNs, RequestView request, WorkerWithDpRank worker) {
        try {
            delegate.onDispatched(nowNs, request, worker);
        } catch (RuntimeException e) {
            failed("onDispatched", e);
        }
    }

    @Override
    public void onResponding(long nowNs, RequestView request) {
        try {
            delegate.onResponding(nowNs, request);
        } catch (RuntimeException e) {
            failed("onResponding", e);
        }
    }

    @Override
    public void onCompleted(long nowNs, RequestView request, long contextTokens) {
        try {
            delegate.onCompleted(nowNs, request, contextTokens);
        } catch (RuntimeException e) {
            failed("onCompleted", e);
        }
    }

    @Override
    public void onAborted(long nowNs, RequestView request, Throwable cause) {
        try {
            delegate.onAborted(nowNs, request, cause);
        } catch (RuntimeException e) {
            failed("onAborted", e);
        }
    }

    @Override
    public void onRetried(long nowNs, RequestView request) {
        try {
            delegate.onRetried(nowNs, request);
        } catch (RuntimeException e) {
            failed("onRetried", e);
        }
    }

    @Override
    public void onWorkerJoined(long nowNs, WorkerWithDpRank worker, long maxNumBatchedTokens,
                               OptionalLong totalKvBlocks) {
        try {
            delegate.onWorkerJoined(nowNs, worker, maxNumBatchedTokens, totalKvBlocks);
        } catch (RuntimeException e) {
            failed("onWorkerJoined", e);
        }
    }

    @Override
    public void onWorkerLeft(long nowNs, WorkerWithDpRank worker) {
        try {
            delegate.onWorkerLeft(nowNs, worker);
        } catch (RuntimeException e) {
            failed("onWorkerLeft", e);
        }
    }

    /** A failing veto check admits: a broken observer must not stop admission unless it says so. */
    @Override
    public AdmissionError arrivalVeto() {
        try {
            return delegate.arrivalVeto();
        } catch (RuntimeException e) {
            failed("arrivalVeto", e);
            return null;
        }
    }
}
