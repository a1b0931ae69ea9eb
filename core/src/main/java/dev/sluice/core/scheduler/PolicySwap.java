package dev.sluice.core.scheduler;

import dev.sluice.core.config.PolicyClassSpec;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.host.PolicyChange;
import dev.sluice.core.host.SchedulerObserver;
import dev.sluice.core.queue.PolicyQueues;
import dev.sluice.core.queue.QueueEntry;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes a reloaded router policy over on the scheduler thread, between two duty cycles: the scheduler takes no more
 * ring messages once it has read the reload ({@link #requested}) and {@linkplain #applyPending applies} it at the end
 * of that cycle, before the cycle's last dispatch pass, so the next cycle runs wholly under the new policy. (A
 * replay, which runs the router until idle after each recorded input, then reaches the same state.) Queued requests
 * move to fresh queues of the new profile, each to the class of the same name, else (its class is gone) to its
 * family's class for its cache bucket, else to the default family's, with a log line per class gone; they keep
 * their place in arrival order. Deferred and parked requests wait on: they are resolved against the new profile when
 * their classification ends, and keep the classifier that deferred or parked them. Dispatched requests run on
 * untouched. A changed classifier takes the requests that arrive from now on; the old one keeps its own until they
 * end ({@link ClassifierHost#retire}).
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
final class PolicySwap {
    private static final Logger LOG = LoggerFactory.getLogger(PolicySwap.class);

    private final String model;
    private final LifecycleTable lifecycles;
    private final AdmissionFlow flow;
    private final DrainRate drain;
    private final SchedulerObserver observer;
    private PolicyReload pending;

    PolicySwap(String model, LifecycleTable lifecycles, AdmissionFlow flow, DrainRate drain,
               SchedulerObserver observer) {
        this.model = model;
        this.lifecycles = lifecycles;
        this.flow = flow;
        this.drain = drain;
        this.observer = observer;
    }

    /** A reload came off the ring; it applies at the end of this duty cycle. */
    void requested(PolicyReload reload) {
        pending = reload;
    }

    /** True while a reload waits: the scheduler takes no more ring messages this duty cycle. */
    boolean pending() {
        return pending != null;
    }

    /** Applies the waiting reload, if any; returns 1 when one was applied. */
    int applyPending(long nowNs) {
        PolicyReload reload = pending;
        if (reload == null) {
            return 0;
        }
        pending = null;
        apply(reload, nowNs);
        return 1;
    }

    private void apply(PolicyReload reload, long nowNs) {
        PolicyQueues old = flow.queues();
        PolicyProfile from = old.profile();
        PolicyProfile to = reload.profile();
        PolicyQueues next = new PolicyQueues(to);
        Map<String, Map<String, Integer>> gone = new TreeMap<>();
        List<QueueEntry> moved = old.moveAllTo(next, (entry, was) -> classFor(entry, was, to, gone));
        ClassifierHost previous = lifecycles.host();
        ClassifierHost classifier = reload.classifier() != null ? reload.classifier() : previous;
        lifecycles.policy(to, classifier);
        drain.remap(from, to);
        flow.queues(next);
        if (classifier != previous) {
            previous.retire();
        }
        int reassigned = 0;
        for (Map.Entry<String, Map<String, Integer>> entry : gone.entrySet()) {
            int count = entry.getValue().values().stream().mapToInt(Integer::intValue).sum();
            reassigned += count;
            LOG.warn("model {}: policy class \"{}\" is not in the reloaded policy; its {} queued request(s) moved to"
                + " {}", model, entry.getKey(), count, entry.getValue());
        }
        observer.onPolicyReloaded(nowNs, new PolicyChange(reload.source(), reload.policyText(), to,
            classifier != previous, moved.size(), reassigned));
        for (QueueEntry entry : moved) {
            LiveRequest request = (LiveRequest) entry;
            PolicyClassSpec was = from.classes().get(request.previousClassIndex);
            observer.onRequeued(nowNs, request, was, to.classes().get(request.classIndex()));
        }
        LOG.info("model {}: router policy reloaded from {}: {} ({} queued request(s) moved, {} to another class; "
            + "classifier {})", model, reload.source(), to, moved.size(), reassigned,
            classifier != previous ? "re-created" : "kept");
    }

    /** The request's class in {@code to}: the same name, else its family's for its bucket, else the default's. */
    private static int classFor(QueueEntry entry, PolicyClassSpec was, PolicyProfile to,
                                Map<String, Map<String, Integer>> gone) {
        ((LiveRequest) entry).previousClassIndex = entry.classIndex();
        int same = to.classIndex(was.name());
        if (same >= 0) {
            return same;
        }
        int index = was.isMatrixClass() ? to.resolveStrict(was.policyFamily(), entry.uncachedTokens()) : -1;
        if (index < 0 || !to.classes().get(index).isMatrixClass()) {
            index = to.resolveLenient(null, entry.uncachedTokens());
        }
        gone.computeIfAbsent(was.name(), k -> new TreeMap<>()).merge(to.classes().get(index).name(), 1,
            Integer::sum);
        return index;
    }
}
