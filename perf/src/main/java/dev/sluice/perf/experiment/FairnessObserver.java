package dev.sluice.perf.experiment;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.PolicyClassSpec;
import dev.sluice.core.host.RequestView;
import dev.sluice.core.host.SchedulerObserver;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.HdrHistogram.Histogram;
import org.agrona.collections.Long2LongHashMap;

/**
 * Per tenant, from the router's own decisions: the queue wait (enqueue to dispatch) of each request dispatched within
 * the service window, in a histogram (µs of virtual time), and the tokens served to those requests (the prompt, plus
 * the generated tokens once it completes), and their time to first token; and the wait of each request enqueued in the
 * window for the next free slot: enqueue to the first dispatch of any request at or after it, which a request pays in
 * any work-conserving queue however it is ordered. Over the whole run, per tenant, the requests preempted and the
 * retries (an arrival of a request id already seen: a client sending a preempted request again); a preempted request's
 * prompt is taken back out of the tokens served and counted as lost, the work thrown away. A measuring instrument,
 * not a production observer. Called on the simulation thread (the router is a manual one); not thread-safe.
 */
final class FairnessObserver implements SchedulerObserver {
    private static final long MAX_US = 3_600_000_000L;

    private final List<String> tenants;
    private final long windowFromNs;
    private final long windowToNs;
    private final Long2LongHashMap tenantOf = new Long2LongHashMap(-1);
    final Histogram[] waitUs;
    final Histogram[] ttftUs;
    final long[] servedTokens;
    final Histogram[] slotUs;
    final long[] preempted;
    final long[] lostTokens;
    final long[] retries;
    private final Set<String> seen = new HashSet<>();
    /** Requests enqueued in the window and not yet followed by any dispatch: {enqueued at, tenant}. */
    private final ArrayDeque<long[]> awaitingSlot = new ArrayDeque<>();

    FairnessObserver(List<String> tenants, long windowFromNs, long windowToNs) {
        this.tenants = List.copyOf(tenants);
        this.windowFromNs = windowFromNs;
        this.windowToNs = windowToNs;
        this.waitUs = new Histogram[tenants.size()];
        this.ttftUs = new Histogram[tenants.size()];
        this.slotUs = new Histogram[tenants.size()];
        for (int t = 0; t < tenants.size(); t++) {
            waitUs[t] = new Histogram(MAX_US, 3);
            ttftUs[t] = new Histogram(MAX_US, 3);
            slotUs[t] = new Histogram(MAX_US, 3);
        }
        this.servedTokens = new long[tenants.size()];
        this.preempted = new long[tenants.size()];
        this.lostTokens = new long[tenants.size()];
        this.retries = new long[tenants.size()];
    }

    @Override
    public void onArrived(long nowNs, RequestView request) {
        int t = tenants.indexOf(request.tenant());
        if (t >= 0 && !seen.add(request.requestId())) {
            retries[t]++;
        }
    }

    @Override
    public void onAborted(long nowNs, RequestView request, Throwable cause) {
        if (!(cause instanceof AdmissionError e && e.reason().equals("preempted"))) {
            return;
        }
        int t = tenants.indexOf(request.tenant());
        if (t >= 0) {
            preempted[t]++;
            lostTokens[t] += request.inputTokens();
        }
        long served = tenantOf.remove(request.lifecycleId());
        if (served >= 0) {
            servedTokens[(int) served] -= request.inputTokens();
        }
    }

    @Override
    public void onEnqueued(long nowNs, RequestView request, PolicyClassSpec policyClass) {
        int t = tenants.indexOf(request.tenant());
        if (t >= 0 && nowNs >= windowFromNs && nowNs < windowToNs) {
            awaitingSlot.add(new long[] {nowNs, t});
        }
    }

    @Override
    public void onDispatched(long nowNs, RequestView request, WorkerWithDpRank worker) {
        while (!awaitingSlot.isEmpty() && awaitingSlot.peek()[0] <= nowNs) {
            long[] a = awaitingSlot.poll();
            slotUs[(int) a[1]].recordValue(Math.min(MAX_US, (nowNs - a[0]) / 1000));
        }
        int t = tenants.indexOf(request.tenant());
        if (t < 0 || nowNs < windowFromNs || nowNs >= windowToNs) {
            return;
        }
        waitUs[t].recordValue(Math.min(MAX_US, Math.max(0, (nowNs - request.enqueuedAt()) / 1000)));
        servedTokens[t] += request.inputTokens();
        tenantOf.put(request.lifecycleId(), t);
    }

    @Override
    public void onResponding(long nowNs, RequestView request) {
        if (tenantOf.containsKey(request.lifecycleId())) {
            int t = (int) tenantOf.get(request.lifecycleId());
            ttftUs[t].recordValue(Math.min(MAX_US, Math.max(0, (nowNs - request.ingressAt()) / 1000)));
        }
    }

    @Override
    public void onCompleted(long nowNs, RequestView request, long contextTokens) {
        long t = tenantOf.remove(request.lifecycleId());
        if (t >= 0 && contextTokens > request.inputTokens()) {
            servedTokens[(int) t] += contextTokens - request.inputTokens();
        }
    }

    /** The queue-wait percentile of a tenant, in ms (0 with no dispatch). */
    double waitMs(int tenant, double percentile) {
        return ms(waitUs[tenant], percentile);
    }

    /** The percentile of a tenant's wait for the next dispatch of any request (the next free slot), in ms. */
    double slotMs(int tenant, double percentile) {
        return ms(slotUs[tenant], percentile);
    }

    /** The time-to-first-token percentile of a tenant (arrival to first token), in ms. */
    double ttftMs(int tenant, double percentile) {
        return ms(ttftUs[tenant], percentile);
    }

    private static double ms(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? 0.0 : h.getValueAtPercentile(percentile) / 1000.0;
    }
}
