package dev.sluice.core.api;

/**
 * Wakes one parked request: the small primitive for "wait until {@code onEvent} says go, or until a deadline".
 * Obtain it with {@link ClassifyRequest#wakeup()}, keep it in the classifier's state, return
 * {@link Classification#park(ClassifyRequest, long, AdmissionError)} from {@code classify}, and call
 * {@link #admit()} from {@code onEvent} when the request may go. No thread waits meanwhile.
 *
 * <p>Thread-safe. The first decision wins; a wake-up that arrives before the park is honoured when the park is
 * returned (no lost wake-ups); one that arrives after the lifecycle ended (the client left, the deadline passed) is
 * ignored and returns {@code false}.
 */
public interface Wakeup {
    /** Admits the parked request. Returns false if a decision was already made or the lifecycle has ended. */
    boolean admit();

    /** Rejects the parked request with this error. Returns false as {@link #admit()} does. */
    boolean reject(AdmissionError error);

    /** True once {@link #admit()} or {@link #reject(AdmissionError)} has been accepted. */
    boolean isDecided();
}
