package dev.sluice.core.router;

import dev.sluice.core.api.ClassifyEvent;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.RequestClassifier;
import java.lang.reflect.Method;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the model's classifier on the scheduler thread and contains its failures: an exception from
 * {@code classify} becomes that request's failure; one from {@code onEvent} is counted and logged, and delivery
 * goes on. Events are built only if the classifier overrides {@code onEvent}, so a pass-through router allocates
 * none. Owned by the scheduler thread; not thread-safe.
 */
final class ClassifierHost {
    private static final Logger LOG = LoggerFactory.getLogger(ClassifierHost.class);

    private final RequestClassifier classifier;
    private final boolean observesEvents;
    long classifyFailures;
    long eventFailures;

    ClassifierHost(RequestClassifier classifier) {
        this.classifier = classifier;
        this.observesEvents = overridesOnEvent(classifier);
    }

    RequestClassifier classifier() {
        return classifier;
    }

    /** True when lifecycle events must be built and delivered. */
    boolean observesEvents() {
        return observesEvents;
    }

    /** Calls {@code classify}; a thrown exception is returned as {@link Failure}. */
    Object classify(ClassifyRequest request) {
        try {
            return classifier.classify(request);
        } catch (Throwable t) {
            classifyFailures++;
            return new Failure(t);
        }
    }

    /** Delivers one event; a failing callback is logged and counted, never propagated. */
    void deliver(ClassifyEvent event) {
        try {
            classifier.onEvent(event);
        } catch (Throwable t) {
            eventFailures++;
            LOG.error("Request classifier failed while processing a lifecycle event {} of request {}",
                event.getClass().getSimpleName(), event.requestId(), t);
        }
    }

    /** A {@code classify} call that threw. */
    record Failure(Throwable cause) {
    }

    /** Checks the decision type so that callers need no cast on the happy path. */
    static boolean isDecision(Object outcome) {
        return outcome instanceof Classification;
    }

    private static boolean overridesOnEvent(RequestClassifier classifier) {
        try {
            Method method = classifier.getClass().getMethod("onEvent", ClassifyEvent.class);
            return method.getDeclaringClass() != RequestClassifier.class;
        } catch (NoSuchMethodException e) {
            return true;
        }
    }
}
