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
 * goes on. A classifier that keeps the default {@code classify} is not called (the default admits unchanged), and
 * events are built only if it overrides {@code onEvent}: a pass-through router allocates nothing per request.
 * Owned by the scheduler thread; not thread-safe.
 */
final class ClassifierHost {
    private static final Logger LOG = LoggerFactory.getLogger(ClassifierHost.class);

    private final RequestClassifier classifier;
    private final boolean passThrough;
    private final boolean observesEvents;
    long classifyFailures;
    long eventFailures;

    ClassifierHost(RequestClassifier classifier) {
        this.classifier = classifier;
        this.passThrough = !overrides(classifier, "classify", dev.sluice.core.api.ClassifyRequest.class);
        this.observesEvents = overrides(classifier, "onEvent", ClassifyEvent.class);
    }

    RequestClassifier classifier() {
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

    private static boolean overrides(RequestClassifier classifier, String name, Class<?> parameter) {
        try {
            Method method = classifier.getClass().getMethod(name, parameter);
            return method.getDeclaringClass() != RequestClassifier.class;
        } catch (NoSuchMethodException e) {
            return true;
        }
    }
}
