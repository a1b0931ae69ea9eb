package dev.sluice.core.scheduler;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Wakeup;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The wake-up of one lifecycle. The first decision wins (a CAS) and is posted to the scheduler's inbox. A decision
 * taken before the classifier returned its park waits in the inbox and is applied once the request is parked, so no
 * wake-up is lost.
 * Closed when the lifecycle ends, after which decisions are refused.
 */
final class RequestWakeup implements Wakeup {
    private static final int OPEN = 0;
    private static final int DECIDED = 1;
    private static final int CLOSED = 2;

    private final RouterSignals signals;
    private final long lifecycleId;
    private final AtomicInteger state = new AtomicInteger(OPEN);

    RequestWakeup(RouterSignals signals, long lifecycleId) {
        this.signals = signals;
        this.lifecycleId = lifecycleId;
    }

    @Override
    public boolean admit() {
        return decide(null);
    }

    @Override
    public boolean reject(AdmissionError error) {
        return decide(Objects.requireNonNull(error, "error"));
    }

    private boolean decide(AdmissionError error) {
        if (!state.compareAndSet(OPEN, DECIDED)) {
            return false;
        }
        signals.wake(lifecycleId, error);
        return true;
    }

    @Override
    public boolean isDecided() {
        return state.get() == DECIDED;
    }

    /** The lifecycle ended: later decisions are refused. */
    void close() {
        state.compareAndSet(OPEN, CLOSED);
    }
}
