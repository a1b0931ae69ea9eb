package dev.sluice.core.scheduler;

import dev.sluice.core.api.ClassifyEvent;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.spi.RequestClassifier;
import java.lang.reflect.Method;
import java.util.Optional;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the model's classifier on the scheduler thread and contains its failures: an exception from
 * {@code classify} becomes that request's failure; one from {@code onEvent} is counted and logged, and delivery
 * goes on. A classifier that keeps the default {@code classify} is not called (the default admits unchanged), and
 * events are built only if it overrides {@code onEvent}, as one reused instance per kind, so neither a pass-through
 * router nor a stateful classifier allocates per request.
 * With a {@link PluginCallGuard}, a call that blocks past the classification timeout is interrupted by the watchdog:
 * {@code classify} then answers {@link TimedOut}, and an interrupted {@code onEvent} counts as a failed delivery.
 * Owned by the scheduler thread; not thread-safe.
 */
public final class ClassifierHost {
    private static final Logger LOG = LoggerFactory.getLogger(ClassifierHost.class);

    private final RequestClassifier classifier;
    private final boolean passThrough;
    private final boolean observesEvents;
    private final PluginCallGuard guard;
    private final RouterCounters counters;
    private final GenerationTimers timers;
    /** Live requests this instance classified or will classify: they hear their events from it. */
    private int requests;
    private boolean retired;
    // One reused instance per kind: an event is valid only during the onEvent call that receives it.
    private final ClassifyEvent.Sent sent = new ClassifyEvent.Sent("", WorkerWithDpRank.of(0));
    private final ClassifyEvent.Responding responding = new ClassifyEvent.Responding("", WorkerWithDpRank.of(0));
    private final ClassifyEvent.Completed completed =
        new ClassifyEvent.Completed("", WorkerWithDpRank.of(0), OptionalLong.empty());
    private final ClassifyEvent.Aborted aborted = new ClassifyEvent.Aborted("", Optional.empty(), Optional.empty());

    /** {@code guard} is {@code null} when plugin calls are not timed; failed deliveries count in {@code counters}. */
    public ClassifierHost(RequestClassifier classifier, PluginCallGuard guard, RouterCounters counters) {
        this(classifier, guard, counters, null);
    }

    /**
     * @param timers the instance's periodic tasks, stopped when it is {@linkplain #retire retired} and idle, or
     *               {@code null} when they are never stopped.
     */
    public ClassifierHost(RequestClassifier classifier, PluginCallGuard guard, RouterCounters counters,
                          GenerationTimers timers) {
        this.classifier = classifier;
        this.guard = guard;
        this.counters = counters;
        this.timers = timers;
        this.passThrough = !overrides(classifier, "classify", dev.sluice.core.api.ClassifyRequest.class);
        this.observesEvents = overrides(classifier, "onEvent", ClassifyEvent.class);
    }

    /** The classifier instance (the pass-through one when none is configured). */
    public RequestClassifier classifier() {
        return classifier;
    }

    /** True when the classifier keeps the default {@code classify}: every request is admitted unchanged. */
    boolean passThrough() {
        return passThrough;
    }

    /** True when lifecycle events must be built and delivered. */
    boolean observesEvents() {
        return observesEvents;
    }

    /**
     * Calls {@code classify}: the decision, a thrown exception as {@link Failure}, or {@link TimedOut} when the
     * guard cut the call (whatever it then returned or threw).
     */
    Object classify(ClassifyRequest request) {
        if (guard != null) {
            guard.begin(System.nanoTime());
        }
        Object outcome;
        try {
            outcome = classifier.classify(request);
        } catch (Throwable t) {
            outcome = new Failure(t);
        }
        if (guard != null && guard.end()) {
            return TimedOut.INSTANCE;
        }
        return outcome;
    }

    /** The reused {@code Sent} event, set to these values: deliver it before asking for another. */
    ClassifyEvent.Sent sent(String requestId, WorkerWithDpRank worker) {
        return sent.set(requestId, worker);
    }

    /** The reused {@code Responding} event, set to these values. */
    ClassifyEvent.Responding responding(String requestId, WorkerWithDpRank worker) {
        return responding.set(requestId, worker);
    }

    /** The reused {@code Completed} event; {@code contextTokens} may be {@code Completed.UNKNOWN}. */
    ClassifyEvent.Completed completed(String requestId, WorkerWithDpRank worker, long contextTokens) {
        return completed.set(requestId, worker, contextTokens);
    }

    /** The reused {@code Aborted} event; {@code worker} and {@code cause} may be null. */
    ClassifyEvent.Aborted aborted(String requestId, WorkerWithDpRank worker, Throwable cause) {
        return aborted.set(requestId, worker, cause);
    }

    /** Delivers one event; a failing (or cut) callback is logged and counted, never propagated. */
    void deliver(ClassifyEvent event) {
        if (guard != null) {
            guard.begin(System.nanoTime());
        }
        Throwable failure = null;
        try {
            classifier.onEvent(event);
        } catch (Throwable t) {
            failure = t;
        }
        if (guard != null && guard.end() && failure == null) {
            failure = new InterruptedException("onEvent ran past the classification timeout of "
                + guard.timeoutNs() / 1_000_000 + " ms and was interrupted");
        }
        if (failure != null) {
            counters.increment(RouterCounters.Counter.EVENT_FAILURES);
            LOG.error("Request classifier failed while processing a lifecycle event {} of request {}",
                event.getClass().getSimpleName(), event.requestId(), failure);
        }
    }


    /** A request registered under this instance: it classifies it and delivers its events. */
    void attach() {
        requests++;
    }

    /** A request of this instance ended; a retired instance with none left stops its periodic tasks. */
    void detach() {
        if (--requests == 0 && retired) {
            stopTimers();
        }
    }

    /**
     * A policy reload replaced this instance: it keeps serving the requests it already has (their events, the
     * continuations and wake-ups of those it deferred or parked) and stops its periodic tasks after the last.
     */
    void retire() {
        retired = true;
        if (requests == 0) {
            stopTimers();
        }
    }

    private void stopTimers() {
        if (timers != null) {
            timers.cancelAll();
        }
    }

    /** A {@code classify} call that threw. */
    record Failure(Throwable cause) {
    }

    /** A {@code classify} call cut by the classification timeout. */
    enum TimedOut {
        INSTANCE
    }

    private static boolean overrides(RequestClassifier classifier, String name, Class<?> parameter) {
        try {
            Method method = classifier.getClass().getMethod(name, parameter);
            return method.getDeclaringClass() != RequestClassifier.class;
        } catch (NoSuchMethodException e) {
            return true;
        }
    }
}
