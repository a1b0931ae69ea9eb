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
 * the admission goes on. That includes {@code InternalError}: the JVM raises it, asynchronously, when a write to a
 * memory-mapped file faults (the journal's, on a full disk). The router wraps its observer in one of these, so a
 * broken journal or metrics sink never breaks an admission. Called on the scheduler thread, like every observer.
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

    /** Always a guarding composite, even of one observer: how the router installs its observer. */
    public static CompositeObserver guarding(SchedulerObserver observer) {
        return new CompositeObserver(new SchedulerObserver[] {Objects.requireNonNull(observer, "observer")});
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

    /** The observers, in calling order. */
    public List<SchedulerObserver> observers() {
        return List.of(observers);
    }

    @Override
    public void onArrived(long nowNs, RequestView request) {
        for (SchedulerObserver o : observers) {
            try {
                o.onArrived(nowNs, request);
            } catch (RuntimeException | InternalError e) {
                failed("onArrived", e);
            }
        }
    }

    @Override
    public void onRefused(long nowNs, long lifecycleId, AdmissionRequest request, AdmissionError error) {
        for (SchedulerObserver o : observers) {
            try {
                o.onRefused(nowNs, lifecycleId, request, error);
            } catch (RuntimeException | InternalError e) {
                failed("onRefused", e);
            }
        }
    }

    @Override
    public void onClassified(long nowNs, RequestView request, Classification.Kind decision) {
        for (SchedulerObserver o : observers) {
            try {
                o.onClassified(nowNs, request, decision);
            } catch (RuntimeException | InternalError e) {
                failed("onClassified", e);
            }
        }
    }

    @Override
    public void onEnqueued(long nowNs, RequestView request, PolicyClassSpec policyClass) {
        for (SchedulerObserver o : observers) {
            try {
                o.onEnqueued(nowNs, request, policyClass);
            } catch (RuntimeException | InternalError e) {
                failed("onEnqueued", e);
            }
        }
    }

    @Override
    public void onRejected(long nowNs, RequestView request, AdmissionError error) {
        for (SchedulerObserver o : observers) {
            try {
                o.onRejected(nowNs, request, error);
            } catch (RuntimeException | InternalError e) {
                failed("onRejected", e);
            }
        }
    }

    @Override
    public void onDispatched(long nowNs, RequestView request, WorkerWithDpRank worker) {
        for (SchedulerObserver o : observers) {
            try {
                o.onDispatched(nowNs, request, worker);
            } catch (RuntimeException | InternalError e) {
                failed("onDispatched", e);
            }
        }
    }

    @Override
    public void onResponding(long nowNs, RequestView request) {
        for (SchedulerObserver o : observers) {
            try {
                o.onResponding(nowNs, request);
            } catch (RuntimeException | InternalError e) {
                failed("onResponding", e);
            }
        }
    }

    @Override
    public void onCompleted(long nowNs, RequestView request, long contextTokens) {
        for (SchedulerObserver o : observers) {
            try {
                o.onCompleted(nowNs, request, contextTokens);
            } catch (RuntimeException | InternalError e) {
                failed("onCompleted", e);
            }
        }
    }

    @Override
    public void onAborted(long nowNs, RequestView request, Throwable cause) {
        for (SchedulerObserver o : observers) {
            try {
                o.onAborted(nowNs, request, cause);
            } catch (RuntimeException | InternalError e) {
                failed("onAborted", e);
            }
        }
    }

    @Override
    public void onRetried(long nowNs, RequestView request) {
        for (SchedulerObserver o : observers) {
            try {
                o.onRetried(nowNs, request);
            } catch (RuntimeException | InternalError e) {
                failed("onRetried", e);
            }
        }
    }

    @Override
    public void onWorkerJoined(long nowNs, WorkerWithDpRank worker, long maxNumBatchedTokens,
                               OptionalLong totalKvBlocks) {
        for (SchedulerObserver o : observers) {
            try {
                o.onWorkerJoined(nowNs, worker, maxNumBatchedTokens, totalKvBlocks);
            } catch (RuntimeException | InternalError e) {
                failed("onWorkerJoined", e);
            }
        }
    }

    @Override
    public void onWorkerLeft(long nowNs, WorkerWithDpRank worker) {
        for (SchedulerObserver o : observers) {
            try {
                o.onWorkerLeft(nowNs, worker);
            } catch (RuntimeException | InternalError e) {
                failed("onWorkerLeft", e);
            }
        }
    }

    @Override
    public void onKvEvent(long nowNs, KvEvent event) {
        for (SchedulerObserver o : observers) {
            try {
                o.onKvEvent(nowNs, event);
            } catch (RuntimeException | InternalError e) {
                failed("onKvEvent", e);
            }
        }
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
            } catch (RuntimeException | InternalError e) {
                // A veto that cannot be decided admits: a broken observer must not refuse all traffic.
                failed("arrivalVeto", e);
            }
        }
        return null;
    }
}
