package dev.sluice.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.spi.RequestClassifier;
import dev.sluice.core.testing.RecordingListener;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * A {@code classify} that blocks the scheduler on something that never comes is cut by the classification timeout:
 * the request is answered 504 and the scheduler goes on admitting. The test waits for outcomes, never for a time.
 */
class BlockingClassifierTimeoutTest {
    private static final Duration GIVE_UP = Duration.ofSeconds(20);

    @Test
    void shouldCutAClassifyCallBlockedOnALatchAndKeepAdmitting() {
        CountDownLatch never = new CountDownLatch(1);
        RequestClassifier blocksOnStuck = new RequestClassifier() {
            @Override
            public Classification classify(ClassifyRequest request) {
                if (request.requestId().startsWith("stuck")) {
                    try {
                        never.await();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException("interrupted while waiting for a quota service", e);
                    }
                }
                return Classification.admit(request);
            }
        };
        RecordingListener listener = new RecordingListener();
        RouterContext context = new RouterContext().classifierFactory(c -> blocksOnStuck)
            .classificationTimeout(Duration.ofMillis(50)).watchdogThreshold(Duration.ZERO);
        try (ModelRouter router = ModelRouter.start(context)) {
            router.workerJoined(WorkerWithDpRank.of(1), 8192, OptionalLong.empty());
            long stuck = router.submit(AdmissionRequest.builder("stuck-1").inputTokens(1).build(), listener);
            long fine = router.submit(AdmissionRequest.builder("fine-1").inputTokens(1).build(), listener);
            await(() -> listener.has(stuck) && listener.has(fine));

            AdmissionError error = listener.outcome(stuck).error();
            assertEquals("classifier_timeout", error.reason());
            assertEquals(504, error.httpStatus(529));
            assertTrue(error.diagnostic().contains("blocked the scheduler in classify"), error.diagnostic());
            assertTrue(listener.outcome(fine).dispatched(), "the request behind it was admitted");

            long again = router.submit(AdmissionRequest.builder("stuck-2").inputTokens(1).build(), listener);
            await(() -> listener.has(again));
            assertEquals("classifier_timeout", listener.outcome(again).error().reason());
            assertEquals(2, router.stats().classifierTimeouts());
            assertEquals(0, router.stats().classifierFailures(), "a cut call is a timeout, not a failure");
            assertTrue(listener.violations().isEmpty(), listener.violations().toString());
        }
    }

    private static void await(BooleanSupplier condition) {
        long giveUp = System.nanoTime() + GIVE_UP.toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < giveUp, "the outcome never came");
            Thread.onSpinWait();
        }
    }
}
