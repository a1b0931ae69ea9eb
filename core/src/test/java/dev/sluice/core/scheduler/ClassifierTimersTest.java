package dev.sluice.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifierTimers;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.ErrorClass;
import dev.sluice.core.api.Wakeup;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.spi.RequestClassifier;
import dev.sluice.core.testing.SteppedRouter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Periodic classifier work on the scheduler thread, the tenant, and Retry-After on a rejection. */
class ClassifierTimersTest {

    /** Parks every request; a reconcile every 100 ms admits what is parked. */
    static final class Reconciling implements RequestClassifier {
        final List<Wakeup> parked = new ArrayList<>();
        final List<Long> ticks = new ArrayList<>();
        final List<Thread> tickThreads = new ArrayList<>();

        Reconciling(ClassifierTimers timers, dev.sluice.core.api.RequestClassifierContext context) {
            timers.every(Duration.ofMillis(100).toNanos(), () -> {
                ticks.add(context.clock().nanoTime());
                tickThreads.add(Thread.currentThread());
                parked.forEach(Wakeup::admit);
                parked.clear();
            });
        }

        @Override
        public Classification classify(ClassifyRequest request) {
            parked.add(request.wakeup());
            return Classification.park(request, ClassifyRequest.NO_DEADLINE, null);
        }
    }

    @Test
    void shouldRunPeriodicWorkOnTheSchedulerThreadOnTheRoutersClock() {
        List<Reconciling> created = new ArrayList<>();
        RouterContext context = new RouterContext().classifierFactory(c -> {
            Reconciling classifier = new Reconciling(c.timers(), c);
            created.add(classifier);
            return classifier;
        });
        try (SteppedRouter r = new SteppedRouter(null, context).worker(1, 8192)) {
            long start = r.clock.nanoTime();
            long id = r.submit("a", 1);
            r.advance(Duration.ofMillis(99));
            assertEquals(false, r.listener.has(id));
            r.advance(Duration.ofMillis(1));
            assertTrue(r.listener.outcome(id).dispatched());
            r.advance(Duration.ofMillis(100));
            // A jump over several intervals runs the task once; missed intervals are not replayed.
            r.advance(Duration.ofMillis(250));
            Reconciling classifier = created.get(0);
            assertEquals(List.of(start + 100_000_000L, start + 200_000_000L, start + 450_000_000L),
                classifier.ticks);
            assertTrue(classifier.tickThreads.stream().allMatch(t -> t == Thread.currentThread()));
        }
    }

    @Test
    void shouldCarryTheTenantAndRetryAfter() {
        List<String> tenants = new ArrayList<>();
        RequestClassifier perTenant = new RequestClassifier() {
            @Override
            public Classification classify(ClassifyRequest request) {
                tenants.add(request.tenant());
                return Classification.reject(AdmissionError.of(ErrorClass.RATE_LIMITED)
                    .retryAfter(Duration.ofMillis(1500)));
            }
        };
        try (SteppedRouter r = new SteppedRouter(perTenant).worker(1, 8192)) {
            long id = r.submit(AdmissionRequest.builder("a").inputTokens(1).tenant("acme").build());
            AdmissionError error = r.listener.outcome(id).error();
            assertEquals(429, error.httpStatus(529));
            assertEquals(1_500_000_000L, error.retryAfterNanos());
            assertEquals(List.of("acme"), tenants);
        }
    }
}
