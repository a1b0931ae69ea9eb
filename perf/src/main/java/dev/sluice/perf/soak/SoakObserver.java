package dev.sluice.perf.soak;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.RequestView;
import dev.sluice.core.host.SchedulerObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Watches the router for the soak run: the admission latency of each request (ingress to dispatch or rejection,
 * on the router's clock) into an interval {@link Recorder}, and the terminal events of every lifecycle, so the
 * run can prove that each arrival ended exactly once. Callbacks run on the scheduler thread; {@link #interval} and
 * {@link #problems} may be called from any thread (the latter once the router is quiet).
 */
final class SoakObserver implements SchedulerObserver {
    private final Recorder admission = new Recorder(3);
    private final Set<Long> open = ConcurrentHashMap.newKeySet();
    private final AtomicLong arrivals = new AtomicLong();
    private final AtomicLong extraTerminals = new AtomicLong();

    @Override
    public void onArrived(long nowNs, RequestView request) {
        open.add(request.lifecycleId());
        arrivals.incrementAndGet();
    }

    @Override
    public void onDispatched(long nowNs, RequestView request, WorkerWithDpRank worker) {
        admitted(nowNs, request);
    }

    @Override
    public void onRejected(long nowNs, RequestView request, AdmissionError error) {
        admitted(nowNs, request);
        ended(request);
    }

    @Override
    public void onCompleted(long nowNs, RequestView request, long contextTokens) {
        ended(request);
    }

    @Override
    public void onAborted(long nowNs, RequestView request, Throwable cause) {
        ended(request);
    }

    /** The admission latencies recorded since the previous call, in nanoseconds. */
    Histogram interval() {
        return admission.getIntervalHistogram();
    }

    /**
     * What went wrong with terminal events: each lifecycle that arrived and has none yet, and the count of terminal
     * events beyond the first. Empty after a clean run, once the router is quiet.
     */
    List<String> problems() {
        List<String> problems = new ArrayList<>();
        for (Long lifecycle : open) {
            problems.add("lifecycle " + lifecycle + " has no terminal event");
        }
        if (extraTerminals.get() > 0) {
            problems.add(extraTerminals.get() + " terminal events after a lifecycle had ended");
        }
        return problems;
    }

    /** How many lifecycles arrived. */
    long arrivals() {
        return arrivals.get();
    }

    /** How many arrived lifecycles have not ended yet. */
    int open() {
        return open.size();
    }

    /** From ingress (stamped by the submitting thread) to the decision, both on the router's clock. */
    private void admitted(long nowNs, RequestView request) {
        admission.recordValue(Math.max(0, nowNs - request.ingressAt()));
    }

    /** Only open lifecycles are kept, so the observer's memory does not grow with the run. */
    private void ended(RequestView request) {
        if (!open.remove(request.lifecycleId())) {
            extraTerminals.incrementAndGet();
        }
    }
}
