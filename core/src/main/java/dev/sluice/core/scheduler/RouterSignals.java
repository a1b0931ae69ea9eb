package dev.sluice.core.scheduler;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;

/**
 * The scheduler's inbox for messages from other threads that must never be lost or block: continuation results
 * and wake-ups. Unbounded on purpose (deferrals are bounded elsewhere); many producers, one consumer.
 */
public final class RouterSignals {
    /** A message to the scheduler thread. */
    record Signal(long lifecycleId, LiveRequest record, Classification result, Throwable failure,
                  AdmissionError wakeRejection, boolean wake) {
    }

    private final ManyToOneConcurrentLinkedQueue<Signal> inbox = new ManyToOneConcurrentLinkedQueue<>();
    private final Runnable wakeScheduler;

    public RouterSignals(Runnable wakeScheduler) {
        this.wakeScheduler = wakeScheduler;
    }

    /** A continuation finished (or failed); always posted, even when its lifecycle is gone. */
    void deferralDone(long lifecycleId, LiveRequest record, Classification result, Throwable failure) {
        inbox.offer(new Signal(lifecycleId, record, result, failure, null, false));
        wakeScheduler.run();
    }

    /** A parked request was woken; {@code rejection} is {@code null} to admit. */
    void wake(long lifecycleId, AdmissionError rejection) {
        inbox.offer(new Signal(lifecycleId, null, null, null, rejection, true));
        wakeScheduler.run();
    }

    /** Removes the next message, or {@code null}. Scheduler thread only. */
    Signal poll() {
        return inbox.poll();
    }

    boolean isEmpty() {
        return inbox.isEmpty();
    }
}
