package dev.sluice.transport.frontend;

import dev.sluice.transport.openai.OpenAiException;
import java.util.OptionalLong;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The {@link LargeBodyBudget} of one frontend: the turns large bodies take, fairly, in arrival order. Thread-safe.
 */
final class LargeBodyGate {
    /** What a request that was not large holds: nothing to give back. */
    private static final Turn NONE = () -> { };

    private final LargeBodyBudget budget;
    private final Semaphore turns;
    private final int overloadStatus;

    LargeBodyGate(LargeBodyBudget budget, int overloadStatus) {
        this.budget = budget;
        this.turns = new Semaphore(budget.permits(), true);
        this.overloadStatus = overloadStatus;
    }

    /** A request's turn, given back once its body is parsed and tokenized. */
    interface Turn extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * A turn for a body of {@code declaredLength} bytes (empty: not declared, so chunked and possibly large); at once
     * for a small body.
     *
     * @throws OpenAiException the overload status, {@code too_many_large_bodies}, when no turn came in time.
     * @throws InterruptedException the request's thread was interrupted while it waited.
     */
    Turn enter(OptionalLong declaredLength) throws OpenAiException, InterruptedException {
        if (small(declaredLength)) {
            return NONE;
        }
        if (!turns.tryAcquire(budget.maxWait().toNanos(), TimeUnit.NANOSECONDS)) {
            throw new OpenAiException(overloadStatus, "Too many requests with bodies over "
                + budget.thresholdBytes() + " bytes are being read at once; retry later", null,
                "too_many_large_bodies");
        }
        return turns::release;
    }

    /**
     * A turn for a body of {@code declaredLength} bytes if one is free now (at once for a small body), else
     * {@code null} (fairly: not ahead of those waiting): the caller then waits for one with {@link #enter} off its
     * event loop.
     */
    Turn tryEnter(OptionalLong declaredLength) throws InterruptedException {
        if (small(declaredLength)) {
            return NONE;
        }
        return turns.tryAcquire(0, TimeUnit.NANOSECONDS) ? turns::release : null;
    }

    private boolean small(OptionalLong declaredLength) {
        return declaredLength.isPresent() && declaredLength.getAsLong() <= budget.thresholdBytes();
    }

    /** Turns free now. */
    int free() {
        return turns.availablePermits();
    }
}
