package dev.sluice.core.scheduler;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.config.ClassPreemption;
import dev.sluice.core.config.PolicyClassSpec;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.queue.PolicyQueues;
import dev.sluice.core.queue.QueueEntry;
import java.util.List;

/**
 * Takes capacity back from sheddable work for higher-priority requests. After a dispatch pass leaves requests queued,
 * each class's shared-lane head that busy gating blocks looks for a victim: a request dispatched ({@code SENT}) but
 * without its first response item, of a class it outranks ({@link ClassPreemption#outranks}), whose release alone frees
 * its worker for the head's class ({@link WorkerTable#freedBy}). Of the victims, the lowest preemption priority goes
 * first, then the lowest strict priority, then the latest arrival (the least work lost); of the blocked heads, the one
 * of the highest preemption priority, then strict priority, then the first class. The victim's host is asked ({@link
 * LifecycleTable#notifyPreempted}): it agrees only if no byte of the response went to the client, so a request that has
 * streamed is never preempted; a refusal marks it and the next victim is asked. An agreed victim ends as aborted with
 * cause {@link Rejections#PREEMPTED} (its {@code Retry-After} from its class's drain rate and backlog), and its freed
 * booking goes to the head at once.
 *
 * <p><b>Over-served tenants.</b> In a tenant-fair class with {@code vtc: preempt_over_served: true} the blocked head
 * (the head of the tenant charged least) may also take a worker from an unanswered request of its own class whose
 * tenant is over-served ({@link PolicyQueues#overServed}: charged at least as much less twice the largest charge one
 * request has caused in the class, VTC's own bound on the counter gap, holding two more requests in service, or one
 * more and more queued, and at least twice as many: so backlogged tenants holding about as much never preempt each
 * other, each preemption's prompt staying charged to its victim's tenant): the tenant holding the most requests in
 * service first (so a light tenant holding two is not taken from while the heavy one holds dozens), its youngest
 * request first, and only when the rule above offers no victim. When the head of the tenant charged least finds none
 * (its tenant is the over-served one, charged less only by the latest charges of the tenant ranked next), the head of
 * the tenant ranked next ({@link PolicyQueues#runnerUpHead}) may. It goes the same way (the host asked, aborted as
 * {@code preempted}, counted, journaled). A tenant never preempts its own work or that of a tenant charged less by
 * more than that margin; the swap leaves the preempting tenant neither holding more than its victim's nor, level,
 * queuing more, so the victim's tenant cannot take the worker straight back; and at most one such preemption
 * happens per {@link #newDispatchCycle dispatch round} (the dispatch after each message).
 *
 * <p>Cost: nothing for a profile without a preemptible class or a class preempting over-served tenants; else O(live
 * requests) per blocked head, once per dispatch pass that leaves a blocked head. Pinned requests (exact lanes) do not
 * preempt. Owned by the scheduler
 * thread; not thread-safe.
 */
final class Preemptor {
    /** Preemptions of over-served tenants' requests allowed per dispatch round. */
    static final int OVER_SERVED_PER_CYCLE = 1;

    private final LifecycleTable lifecycles;
    private final WorkerTable workers;
    private final RouterCounters counters;
    private final DrainRate drain;
    private PolicyProfile checked;
    private boolean enabled;
    private int overServedLeft = OVER_SERVED_PER_CYCLE;
    /** Whether the last victim {@link #victimFor} chose was an over-served tenant's request (not outranked). */
    private boolean victimOverServed;

    Preemptor(LifecycleTable lifecycles, WorkerTable workers, RouterCounters counters, DrainRate drain) {
        this.lifecycles = lifecycles;
        this.workers = workers;
        this.counters = counters;
        this.drain = drain;
    }

    /** A dispatch round (after a message) starts: the over-served preemption budget is renewed. */
    void newDispatchCycle() {
        overServedLeft = OVER_SERVED_PER_CYCLE;
    }

    /**
     * Finds one blocked head and a victim whose host gives it up, ends the victim through {@code flow} (aborted,
     * cause {@code preempted}: its booking released) and takes the head out of its queue for the caller to place on
     * the freed worker; returns the head, or {@code null} when nothing was preempted.
     */
    LiveRequest preemptOne(PolicyQueues queues, PolicyProfile profile, AdmissionFlow flow) {
        if (!enabled(profile) || queues.size() == 0) {
            return null;
        }
        List<PolicyClassSpec> classes = profile.classes();
        LiveRequest bestHead = null;
        LiveRequest bestVictim = null;
        boolean bestOverServed = false;
        for (int c = 0; c < classes.size(); c++) {
            QueueEntry entry = queues.sharedHead(c);
            PolicyClassSpec spec = classes.get(c);
            if (entry == null || workers.count() == 0 || workers.sharedDispatchable(spec)) {
                continue;
            }
            LiveRequest head = (LiveRequest) entry;
            if (bestHead != null && !urgent(head, bestHead, classes)) {
                continue;
            }
            LiveRequest victim = victimFor(head, spec, classes, queues);
            if (victim == null && spec.tenantFairness().preemptsOverServed()) {
                // The least-charged tenant may be the over-served one (charged less only for the moment): the head
                // of the tenant ranked next may then take a worker from it.
                LiveRequest next = (LiveRequest) queues.runnerUpHead(c);
                LiveRequest nextVictim = next == null ? null : victimFor(next, spec, classes, queues);
                if (nextVictim != null) {
                    head = next;
                    victim = nextVictim;
                }
            }
            if (victim != null) {
                bestHead = head;
                bestVictim = victim;
                bestOverServed = victimOverServed;
            }
        }
        while (bestVictim != null) {
            int victimClass = bestVictim.classIndex();
            AdmissionError cause = drain.stamp(Rejections.PREEMPTED, victimClass, queues.size(victimClass) + 1);
            if (lifecycles.notifyPreempted(bestVictim, cause)) {
                counters.increment(RouterCounters.Counter.PREEMPTED);
                if (bestOverServed) {
                    overServedLeft--;
                }
                flow.abort(bestVictim, cause);
                queues.removeToDispatch(bestHead);
                return bestHead;
            }
            bestVictim.preemptRefused = true;
            bestVictim = victimFor(bestHead, classes.get(bestHead.classIndex()), classes, queues);
            bestOverServed = victimOverServed;
        }
        return null;
    }

    private boolean enabled(PolicyProfile profile) {
        if (profile != checked) {
            checked = profile;
            enabled = false;
            for (PolicyClassSpec spec : profile.classes()) {
                enabled |= spec.preemption().preemptible() || spec.tenantFairness().preemptsOverServed();
            }
        }
        return enabled;
    }

    /** True when {@code a} is a more urgent head than {@code b}: higher class priority, then strict priority. */
    private static boolean urgent(LiveRequest a, LiveRequest b, List<PolicyClassSpec> classes) {
        long pa = classes.get(a.classIndex()).preemption().priority();
        long pb = classes.get(b.classIndex()).preemption().priority();
        return pa != pb ? pa > pb : a.strictPriority() > b.strictPriority();
    }

    /**
     * The best victim for {@code head}: an outranked request first ({@link #before}), else, when the class preempts
     * over-served tenants and the round's budget allows, the youngest request of the over-served tenant holding the
     * most requests in service; sets {@link #victimOverServed}.
     */
    private LiveRequest victimFor(LiveRequest head, PolicyClassSpec spec, List<PolicyClassSpec> classes,
                                  PolicyQueues queues) {
        ClassPreemption mine = spec.preemption();
        boolean overServedAllowed = overServedLeft > 0 && spec.tenantFairness().preemptsOverServed();
        LiveRequest best = null;
        LiveRequest fair = null;
        int fairLead = 0;
        for (LiveRequest candidate : lifecycles.live()) {
            int index = candidate.classIndex();
            if (candidate.phase() != LifecyclePhase.SENT || candidate.preemptRefused || index < 0
                || index >= classes.size()) {
                continue;
            }
            if (mine.outranks(head.strictPriority(), classes.get(index).preemption(), candidate.strictPriority())) {
                if (workers.freedBy(spec, candidate) && (best == null || before(candidate, best, classes))) {
                    best = candidate;
                }
            } else if (overServedAllowed && best == null && index == head.classIndex()) {
                int lead = queues.overServed(candidate, head);
                if (lead > 0 && (fair == null || lead > fairLead
                    || (lead == fairLead && candidate.lifecycleId > fair.lifecycleId))
                    && workers.freedBy(spec, candidate)) {
                    fair = candidate;
                    fairLead = lead;
                }
            }
        }
        victimOverServed = best == null && fair != null;
        return best != null ? best : fair;
    }

    /** Victim order: lower class priority, then lower strict priority, then later arrival. */
    private static boolean before(LiveRequest a, LiveRequest b, List<PolicyClassSpec> classes) {
        long pa = classes.get(a.classIndex()).preemption().priority();
        long pb = classes.get(b.classIndex()).preemption().priority();
        if (pa != pb) {
            return pa < pb;
        }
        if (a.strictPriority() != b.strictPriority()) {
            return a.strictPriority() < b.strictPriority();
        }
        return a.lifecycleId > b.lifecycleId;
    }
}
