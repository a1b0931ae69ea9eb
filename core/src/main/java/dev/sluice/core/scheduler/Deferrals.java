package dev.sluice.core.scheduler;

import dev.sluice.core.api.Classification;
import dev.sluice.core.api.Continuation;

/**
 * Runs continuations on virtual threads and posts every result back to the scheduler's inbox, even when the
 * lifecycle has meanwhile ended (the result is then dropped there, by lifecycle id). A record is not reused while
 * its continuation may still touch it. Owned by the scheduler thread; not thread-safe.
 */
final class Deferrals {
    private final RouterSignals signals;
    private final RouterCounters counters;
    private final int max;
    private final Thread.Builder builder = Thread.ofVirtual().name("sluice-deferral-", 0);
    private int running;

    Deferrals(RouterSignals signals, RouterCounters counters, int max) {
        this.signals = signals;
        this.counters = counters;
        this.max = max;
    }

    /** Starts the continuation; false when the limit of running continuations is reached. */
    boolean start(LiveRequest request, Continuation continuation) {
        if (running >= max) {
            return false;
        }
        request.prepareForOtherThread();
        request.deferralRunning = true;
        running++;
        counters.set(RouterCounters.Counter.DEFERRALS_RUNNING, running);
        long lifecycleId = request.lifecycleId;
        request.deferral = builder.start(() -> {
            Classification result = null;
            Throwable failure = null;
            try {
                result = continuation.resume(request);
            } catch (Throwable t) {
                failure = t;
            }
            signals.deferralDone(lifecycleId, request, result, failure);
        });
        return true;
    }

    /** The continuation's result came back: the record is the scheduler's alone again. */
    void finished(LiveRequest request) {
        running--;
        counters.set(RouterCounters.Counter.DEFERRALS_RUNNING, running);
        request.deferralRunning = false;
        request.deferral = null;
    }

    /** The client left: interrupt the continuation (its result will be dropped). */
    void interrupt(LiveRequest request) {
        Thread thread = request.deferral;
        if (thread != null) {
            thread.interrupt();
        }
    }

    int running() {
        return running;
    }
}
