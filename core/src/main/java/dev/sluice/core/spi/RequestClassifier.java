package dev.sluice.core.spi;

import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyEvent;
import dev.sluice.core.api.ClassifyRequest;

/**
 * Decides, for each request, whether and when it enters the router's scheduling queue, and with which policy
 * class, deadline, cost and preferred worker. One instance per model router, created by a
 * {@code RequestClassifierFactory} (registration lives in the {@code spi} package).
 *
 * <p>Both methods run on the router's scheduler thread, one call at a time: decide or set up quickly and wait only
 * inside a deferral, because a slow call delays every other admission decision and event of that model. An
 * exception from either method fails that one request (sanitized 500) or is counted and logged; the instance keeps
 * serving.
 */
public interface RequestClassifier {
    /**
     * Classifies one request. The default admits it unchanged (pass-through).
     *
     * @param request the request; return this same object in an admit, defer or park decision.
     * @return the decision; never {@code null}.
     */
    default Classification classify(ClassifyRequest request) {
        return Classification.admit(request);
    }

    /**
     * Observes one lifecycle event: {@code Sent}, {@code Responding}, then one terminal event. The default ignores
     * them. Use terminal events to release capacity and wake parked requests.
     */
    default void onEvent(ClassifyEvent event) {
    }
}
