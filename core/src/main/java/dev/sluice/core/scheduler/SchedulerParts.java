package dev.sluice.core.scheduler;

import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.host.SchedulerObserver;
import java.util.Objects;
import org.agrona.concurrent.NanoClock;

/**
 * What a model router's scheduler is made of, built once by the router's concluded context: the ingress ring and
 * the inbox that feed it, the clock, the counters, the worker table, the classifier behind its host, the observer,
 * and the limits. The {@link SchedulerAgent} consumes these; it builds only its own single-threaded admission state
 * from them.
 *
 * @param model                   the served model, in thread names and logs.
 * @param clock                   the router's monotonic clock, read once per duty cycle.
 * @param profile                 the policy profile the router queues by.
 * @param ingress                 the ingress ring's publishing side.
 * @param signals                 the inbox of continuation results and wake-ups.
 * @param wakeable                the default idle strategy, woken by producers (also used when another runs).
 * @param combining               the role the scheduler thread shares with producers ({@code combine}), or
 *                                {@code null}.
 * @param counters                the router's counters.
 * @param workers                 the worker table with the model's worker selector.
 * @param periodic                the classifier's periodic tasks.
 * @param classifier              the classifier, behind the host that contains its failures.
 * @param guard                   cuts plugin calls past the classification timeout, or {@code null}.
 * @param observer                sees every input and decision (already guarding).
 * @param maxLiveRequests         live lifecycles at most.
 * @param maxDeferrals            continuations running at once at most.
 * @param eventsPerDutyCycle      ring messages per duty cycle before timers and the inbox get a turn.
 * @param classificationTimeoutNs how long one classification may take, or 0 for no limit.
 */
public record SchedulerParts(String model, NanoClock clock, PolicyProfile profile, IngressProxy ingress,
                             RouterSignals signals, WakeableIdleStrategy wakeable, CombiningScheduler combining,
                             RouterCounters counters,
                             WorkerTable workers, PeriodicTasks periodic, ClassifierHost classifier,
                             PluginCallGuard guard, SchedulerObserver observer, int maxLiveRequests,
                             int maxDeferrals, int eventsPerDutyCycle, long classificationTimeoutNs) {
    /** Every part but the guard is required. */
    public SchedulerParts {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(ingress, "ingress");
        Objects.requireNonNull(signals, "signals");
        Objects.requireNonNull(wakeable, "wakeable");
        Objects.requireNonNull(counters, "counters");
        Objects.requireNonNull(workers, "workers");
        Objects.requireNonNull(periodic, "periodic");
        Objects.requireNonNull(classifier, "classifier");
        Objects.requireNonNull(observer, "observer");
    }
}
