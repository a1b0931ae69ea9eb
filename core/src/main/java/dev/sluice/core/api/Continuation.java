package dev.sluice.core.api;

/**
 * The waiting part of a deferred classification. It runs on a virtual thread, may block (await a condition, sleep,
 * call a quota service) and returns {@link Classification#admit(ClassifyRequest)} or
 * {@link Classification#reject(AdmissionError)}. It must not touch the classifier's scheduler-thread state without
 * its own synchronisation. If the client goes away the thread is interrupted and its result is discarded.
 */
@FunctionalInterface
public interface Continuation {
    /**
     * Waits for whatever the request needs, then decides.
     *
     * @param request the same request that was deferred; return it inside the admit decision.
     * @return an admit or reject decision; anything else fails the request.
     * @throws Exception a failure, which fails this request only (sanitized 500).
     */
    Classification resume(ClassifyRequest request) throws Exception;
}
