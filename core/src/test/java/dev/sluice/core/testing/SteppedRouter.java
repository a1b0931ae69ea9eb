package dev.sluice.core.testing;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.spi.RequestClassifier;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.function.BooleanSupplier;
import org.agrona.concurrent.CachedNanoClock;

/**
 * A manual {@link ModelRouter} on a test clock ({@link TestClocks#started}), stepped by the test on its own thread,
 * with a {@link RecordingListener}: the fixture of deterministic scheduler tests.
 */
public final class SteppedRouter implements AutoCloseable {
    /** Cycles {@link #stepUntil} runs before it gives up (a guard against a hung test, not a timing assertion). */
    private static final Duration STEP_GUARD = Duration.ofSeconds(20);

    public final CachedNanoClock clock = TestClocks.started();
    public final RecordingListener listener = new RecordingListener();
    public final ModelRouter router;

    public SteppedRouter(RequestClassifier classifier) {
        this(classifier, new RouterContext());
    }

    public SteppedRouter(RequestClassifier classifier, RouterContext context) {
        context.clock(clock);
        if (classifier != null) {
            context.classifierFactory(ignored -> classifier);
        }
        this.router = ModelRouter.manual(context);
    }

    /** A router whose profile is {@code profile}. */
    public static SteppedRouter withProfile(RequestClassifier classifier, PolicyProfile profile) {
        return new SteppedRouter(classifier, new RouterContext().profile(profile));
    }

    /** Registers worker {@code id} rank 0 and applies it. */
    public SteppedRouter worker(long id, long maxNumBatchedTokens) {
        router.workerJoined(WorkerWithDpRank.of(id), maxNumBatchedTokens, OptionalLong.of(1000));
        step();
        return this;
    }

    /** Submits a request with this id and input size, and runs one duty cycle. */
    public long submit(String requestId, long inputTokens) {
        return submit(AdmissionRequest.builder(requestId).inputTokens(inputTokens).build());
    }

    public long submit(AdmissionRequest request) {
        long id = router.submit(request, listener);
        step();
        return id;
    }

    /** Runs duty cycles until no work is left. */
    public void step() {
        int guard = 0;
        while (router.doWork() > 0) {
            if (++guard > 1_000_000) {
                throw new AssertionError("the scheduler never went idle");
            }
        }
    }

    /**
     * Runs duty cycles until {@code condition} holds: for hand-offs from other threads (continuations). Gives up
     * with an assertion error after a generous guard time.
     */
    public void stepUntil(BooleanSupplier condition) {
        long giveUp = System.nanoTime() + STEP_GUARD.toNanos();
        while (!condition.getAsBoolean()) {
            if (router.doWork() == 0) {
                Thread.onSpinWait();
            }
            if (System.nanoTime() > giveUp) {
                throw new AssertionError("condition not reached after " + STEP_GUARD);
            }
        }
        step();
    }

    public void advance(Duration by) {
        clock.advance(by.toNanos());
        step();
    }

    @Override
    public void close() {
        router.close();
    }
}
