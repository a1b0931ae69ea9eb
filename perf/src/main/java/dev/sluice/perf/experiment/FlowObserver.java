package dev.sluice.perf.experiment;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.PolicyChange;
import dev.sluice.core.host.RequestView;
import dev.sluice.core.host.SchedulerObserver;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.HdrHistogram.Histogram;

/**
 * Per policy family (the class a request names), from the router's own decisions: the queue wait (ingress to dispatch)
 * and time to first token of the requests dispatched within the service window, in histograms (µs of virtual time); and
 * over the whole run the arrivals, retries (an arrival of a request id already seen: a client sending a preempted
 * request again), completions, preemptions and other ends (rejected, or aborted for any other cause, the cut at the
 * run's end included), and the policy reloads applied with the queued requests each moved. A measuring instrument, not
 * a production observer. Called on the simulation thread (the router is a manual one); not thread-safe.
 */
final class FlowObserver implements SchedulerObserver {
    private static final long MAX_US = 3_600_000_000L;

    /** One family's figures. */
    static final class Family {
        final Histogram waitUs = new Histogram(MAX_US, 3);
        final Histogram ttftUs = new Histogram(MAX_US, 3);
        long arrivals;
        long retries;
        long completed;
        long preempted;
        long lost;
    }

    private final List<String> families;
    private final long windowFromNs;
    private final long windowToNs;
    private final Set<String> seen = new HashSet<>();
    final Family[] figures;
    long reloads;
    long requeued;
    long maxRequeued;

    FlowObserver(List<String> families, long windowFromNs, long windowToNs) {
        this.families = List.copyOf(families);
        this.windowFromNs = windowFromNs;
        this.windowToNs = windowToNs;
        this.figures = new Family[families.size()];
        for (int f = 0; f < figures.length; f++) {
            figures[f] = new Family();
        }
    }

    private Family of(RequestView request) {
        int f = families.indexOf(request.requestedPolicyClass());
        return f < 0 ? null : figures[f];
    }

    private boolean inWindow(long nowNs) {
        return nowNs >= windowFromNs && nowNs < windowToNs;
    }

    @Override
    public void onArrived(long nowNs, RequestView request) {
        Family f = of(request);
        if (f != null) {
            f.arrivals++;
            if (!seen.add(request.requestId())) {
                f.retries++;
            }
        }
    }

    @Override
    public void onDispatched(long nowNs, RequestView request, WorkerWithDpRank worker) {
        Family f = of(request);
        if (f != null && inWindow(nowNs)) {
            f.waitUs.recordValue(Math.min(MAX_US, Math.max(0, (nowNs - request.ingressAt()) / 1000)));
        }
    }

    @Override
    public void onResponding(long nowNs, RequestView request) {
        Family f = of(request);
        if (f != null && inWindow(request.ingressAt())) {
            f.ttftUs.recordValue(Math.min(MAX_US, Math.max(0, (nowNs - request.ingressAt()) / 1000)));
        }
    }

    @Override
    public void onCompleted(long nowNs, RequestView request, long contextTokens) {
        Family f = of(request);
        if (f != null) {
            f.completed++;
        }
    }

    @Override
    public void onRejected(long nowNs, RequestView request, AdmissionError error) {
        Family f = of(request);
        if (f != null) {
            f.lost++;
        }
    }

    @Override
    public void onAborted(long nowNs, RequestView request, Throwable cause) {
        Family f = of(request);
        if (f == null) {
            return;
        }
        if (cause instanceof AdmissionError e && e.reason().equals("preempted")) {
            f.preempted++;
        } else {
            f.lost++;
        }
    }

    @Override
    public void onPolicyReloaded(long nowNs, PolicyChange change) {
        reloads++;
        requeued += change.requeued();
        maxRequeued = Math.max(maxRequeued, change.requeued());
    }

    /** A histogram's percentile in ms (0 when empty). */
    static double ms(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? 0.0 : h.getValueAtPercentile(percentile) / 1000.0;
    }
}
