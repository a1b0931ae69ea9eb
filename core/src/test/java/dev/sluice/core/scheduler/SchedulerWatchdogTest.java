package dev.sluice.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import org.junit.jupiter.api.Test;

/**
 * A classifier that blocks the scheduler is noticed: the watchdog counts the overrun while it blocks. The test
 * releases the classifier only once the watchdog has reported, so it waits for an event, not for a time.
 */
class SchedulerWatchdogTest {

    @Test
    void shouldCountADutyCycleThatABlockingClassifierHoldsUp() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        RequestClassifier blocking = new RequestClassifier() {
            @Override
            public Classification classify(ClassifyRequest request) {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return Classification.admit(request);
            }
        };
        RecordingListener listener = new RecordingListener();
        RouterContext context = new RouterContext().classifierFactory(c -> blocking)
            .watchdogThreshold(Duration.ofMillis(20));
        try (ModelRouter router = ModelRouter.start(context)) {
            router.workerJoined(WorkerWithDpRank.of(1), 8192, OptionalLong.empty());
            long id = router.submit(AdmissionRequest.builder("stuck").inputTokens(1).build(), listener);
            long giveUp = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (router.stats().dutyCycleOverruns() == 0) {
                assertTrue(System.nanoTime() < giveUp, "the watchdog never reported the blocked scheduler");
                Thread.onSpinWait();
            }
            release.countDown();
            while (!listener.has(id)) {
                assertTrue(System.nanoTime() < giveUp, "the request was never admitted");
                Thread.onSpinWait();
            }
            assertEquals(1, router.stats().dutyCycleOverruns(), "one stuck cycle is one overrun");
        }
    }

    @Test
    void shouldHaveNoWatchdogOnAManualRouter() {
        try (ModelRouter router = ModelRouter.manual(new RouterContext())) {
            router.doWork();
            assertEquals(0, router.stats().dutyCycleOverruns());
        }
    }
}
