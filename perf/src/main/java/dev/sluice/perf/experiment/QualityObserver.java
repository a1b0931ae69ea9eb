package dev.sluice.perf.experiment;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.PolicyClassSpec;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.host.RequestView;
import dev.sluice.core.host.SchedulerObserver;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * Measures scheduling quality from the router's own decisions: for each request, by the load step it arrived in
 * and the policy family it named, whether it was queued, rejected by a queue limit or its deadline, dispatched (late,
 * if after its {@code due_at}), and whether its first token came within the TTFT objective; TTFT per step and queue
 * wait per family in histograms (µs of virtual time). Within the service window it also sums the scheduling cost
 * (the DRR charge) of each family's dispatches, and counts completions. A measuring instrument, not a production
 * observer: it allocates a small record per request. Called on the simulation thread (the router is a manual one);
 * not thread-safe.
 */
final class QualityObserver implements SchedulerObserver {
    private static final long MAX_US = 3_600_000_000L;

    /** One live request. */
    private static final class Track {
        final int family;
        final int step;
        long firstTokenNs = -1;

        Track(int family, int step) {
            this.family = family;
            this.step = step;
        }
    }

    private final List<QualityClass> classes;
    private final long stepNs;
    private final int steps;
    private final long sloNs;
    private final long windowFromNs;
    private final long windowToNs;
    private final Long2ObjectHashMap<Track> live = new Long2ObjectHashMap<>();
    final ClassCounters[][] counters;
    final Histogram[] ttftUs;
    final Histogram[] waitUs;
    final long[] windowCostTokens;
    final long[] windowDispatches;
    long windowCompletions;

    /**
     * @param classes      the families, in table order.
     * @param stepNs       the length of a load step.
     * @param steps        how many steps (a later arrival counts in the last).
     * @param sloNs        the TTFT objective: a completed request whose first token came within it is good.
     * @param windowFromNs start of the service window (virtual time).
     * @param windowToNs   its end.
     */
    QualityObserver(List<QualityClass> classes, long stepNs, int steps, long sloNs, long windowFromNs,
                    long windowToNs) {
        this.classes = List.copyOf(classes);
        this.stepNs = stepNs;
        this.steps = steps;
        this.sloNs = sloNs;
        this.windowFromNs = windowFromNs;
        this.windowToNs = windowToNs;
        this.counters = new ClassCounters[steps][classes.size()];
        this.ttftUs = new Histogram[steps];
        for (int s = 0; s < steps; s++) {
            ttftUs[s] = new Histogram(MAX_US, 3);
            for (int c = 0; c < classes.size(); c++) {
                counters[s][c] = new ClassCounters();
            }
        }
        this.waitUs = new Histogram[classes.size()];
        for (int c = 0; c < classes.size(); c++) {
            waitUs[c] = new Histogram(MAX_US, 3);
        }
        this.windowCostTokens = new long[classes.size()];
        this.windowDispatches = new long[classes.size()];
    }

    @Override
    public void onArrived(long nowNs, RequestView request) {
        int family = family(request.requestedPolicyClass());
        if (family < 0) {
            return;
        }
        Track track = new Track(family, step(request.ingressAt()));
        live.put(request.lifecycleId(), track);
        at(track).submitted++;
    }

    @Override
    public void onRefused(long nowNs, long lifecycleId, AdmissionRequest request, AdmissionError error) {
        int family = family(request.policyClass());
        if (family >= 0) {
            ClassCounters c = counters[step(nowNs)][family];
            c.submitted++;
            c.otherRejected++;
        }
    }

    @Override
    public void onEnqueued(long nowNs, RequestView request, PolicyClassSpec policyClass) {
        Track track = live.get(request.lifecycleId());
        if (track != null) {
            at(track).enqueued++;
        }
    }

    @Override
    public void onRejected(long nowNs, RequestView request, AdmissionError error) {
        Track track = live.remove(request.lifecycleId());
        if (track == null) {
            return;
        }
        ClassCounters c = at(track);
        switch (error.reason()) {
            case "queue_rejected" -> c.queueRejected++;
            case "deadline_exceeded" -> c.expired++;
            default -> c.otherRejected++;
        }
    }

    @Override
    public void onDispatched(long nowNs, RequestView request, WorkerWithDpRank worker) {
        Track track = live.get(request.lifecycleId());
        if (track == null) {
            return;
        }
        ClassCounters c = at(track);
        c.dispatched++;
        if (request.dueAt() != ClassifyRequest.NO_DEADLINE && nowNs > request.dueAt()) {
            c.dispatchedLate++;
        }
        record(waitUs[track.family], nowNs - request.ingressAt());
        if (nowNs >= windowFromNs && nowNs < windowToNs) {
            windowCostTokens[track.family] += request.costTokens();
            windowDispatches[track.family]++;
        }
    }

    @Override
    public void onResponding(long nowNs, RequestView request) {
        Track track = live.get(request.lifecycleId());
        if (track != null && track.firstTokenNs < 0) {
            track.firstTokenNs = nowNs;
            at(track).responded++;
            record(ttftUs[track.step], nowNs - request.ingressAt());
        }
    }

    @Override
    public void onCompleted(long nowNs, RequestView request, long contextTokens) {
        Track track = live.remove(request.lifecycleId());
        if (track == null) {
            return;
        }
        ClassCounters c = at(track);
        c.completed++;
        if (track.firstTokenNs >= 0 && track.firstTokenNs - request.ingressAt() <= sloNs) {
            c.good++;
        }
        if (nowNs >= windowFromNs && nowNs < windowToNs) {
            windowCompletions++;
        }
    }

    @Override
    public void onAborted(long nowNs, RequestView request, Throwable cause) {
        Track track = live.remove(request.lifecycleId());
        if (track != null) {
            at(track).aborted++;
        }
    }

    /** Every family's counters of step {@code s}, summed. */
    ClassCounters step(int s, ClassCounters into) {
        for (ClassCounters c : counters[s]) {
            into.add(c);
        }
        return into;
    }

    /** One family's counters over every step. */
    ClassCounters family(int f) {
        ClassCounters sum = new ClassCounters();
        for (ClassCounters[] step : counters) {
            sum.add(step[f]);
        }
        return sum;
    }

    private ClassCounters at(Track track) {
        return counters[track.step][track.family];
    }

    private int step(long ingressNs) {
        return (int) Math.min(steps - 1, Math.max(0, ingressNs / stepNs));
    }

    private int family(String name) {
        for (int i = 0; i < classes.size(); i++) {
            if (classes.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    private static void record(Histogram us, long ns) {
        us.recordValue(Math.min(MAX_US, Math.max(0, ns / 1000)));
    }
}
