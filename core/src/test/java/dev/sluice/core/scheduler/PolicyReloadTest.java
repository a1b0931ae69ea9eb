package dev.sluice.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.ClassifyEvent;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.Wakeup;
import dev.sluice.core.config.ConfigException;
import dev.sluice.core.config.PolicyClassSpec;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.host.PolicyChange;
import dev.sluice.core.host.RequestView;
import dev.sluice.core.host.SchedulerObserver;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.testing.RecordingClassifier;
import dev.sluice.core.testing.SteppedRouter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A reloaded router policy taken over by a stepped scheduler: queued requests move to their class in the new profile
 * (or, their class gone, to their family's or the default family's) and keep their arrival order, a parked request
 * stays parked and queues under the new profile when woken, a dispatched one completes, a changed classifier takes
 * only the new arrivals while the old one hears the end of its own, and stops its periodic tasks after them.
 */
class PolicyReloadTest {
    private static final String BEFORE = """
        default_policy_family: latency
        uncached_isl_buckets: [{min_tokens: 0, bucket: all}]
        policy_classes:
          - {name: latency, policy_family: latency, cache_bucket: all, quantum: 1, prefill_busy_threshold: 0}
          - {name: bulk, policy_family: bulk, cache_bucket: all, quantum: 1, prefill_busy_threshold: 0}
          - {name: batch, quantum: 1, prefill_busy_threshold: 0}
        """;
    private static final String AFTER = """
        default_policy_family: latency
        uncached_isl_buckets: [{min_tokens: 0, bucket: all}]
        policy_classes:
          - {name: latency, policy_family: latency, cache_bucket: all, quantum: 1, prefill_busy_threshold: 0}
          - {name: bulk-v2, policy_family: bulk, cache_bucket: all, quantum: 1, prefill_busy_threshold: 0}
        """;

    private static PolicyProfile profile(String yaml) throws ConfigException {
        return RouterPolicyLoader.parse(yaml, "<inline>").root().orElseThrow();
    }

    private static AdmissionRequest request(String id, String policyClass) {
        return AdmissionRequest.builder(id).inputTokens(100).policyClass(policyClass).build();
    }

    /** What the observer heard: the reloads and each move as "id:from->to". */
    private static final class Moves implements SchedulerObserver {
        final List<PolicyChange> reloads = new ArrayList<>();
        final List<String> moves = new ArrayList<>();
        final List<String> enqueued = new ArrayList<>();

        @Override
        public void onPolicyReloaded(long nowNs, PolicyChange change) {
            reloads.add(change);
        }

        @Override
        public void onRequeued(long nowNs, RequestView request, PolicyClassSpec from, PolicyClassSpec to) {
            moves.add(request.requestId() + ":" + from.name() + "->" + to.name());
        }

        @Override
        public void onEnqueued(long nowNs, RequestView request, PolicyClassSpec policyClass) {
            enqueued.add(request.requestId() + ":" + policyClass.name());
        }
    }

    @Test
    void shouldMoveQueuedRequestsToTheirNewClassesAndKeepTheirOrder() throws Exception {
        Moves seen = new Moves();
        RecordingClassifier classifier = new RecordingClassifier();
        RouterContext context = new RouterContext().profile(profile(BEFORE)).observer(seen);
        try (SteppedRouter r = new SteppedRouter(classifier, context).worker(1, 1000)) {
            long running = r.submit(request("running", "latency"));
            assertTrue(r.listener.outcome(running).dispatched());
            long lat = r.submit(request("q-latency", "latency"));
            long bulk = r.submit(request("q-bulk", "bulk"));
            long batch = r.submit(request("q-batch", "batch"));
            assertEquals(3, r.router.stats().queued());

            r.router.reloadPolicy("after.yaml", AFTER, profile(AFTER));
            r.step();

            assertEquals(1, seen.reloads.size());
            PolicyChange change = seen.reloads.get(0);
            assertEquals(3, change.requeued());
            assertEquals(2, change.reassigned(), "bulk and batch are gone");
            assertFalse(change.classifierReplaced());
            assertEquals(List.of("q-latency:latency->latency", "q-bulk:bulk->bulk-v2", "q-batch:batch->latency"),
                seen.moves);
            assertEquals(3, r.router.stats().queued(), "nothing queued is lost");

            // The request that was in flight completes; the queue then drains in arrival order, DRR across classes.
            r.router.responding(running);
            r.router.completed(running);
            r.step();
            assertTrue(r.listener.outcome(lat).dispatched());
            assertFalse(r.listener.has(bulk));
            r.router.completed(lat);
            r.step();
            assertTrue(r.listener.outcome(bulk).dispatched());
            r.router.completed(bulk);
            r.step();
            assertTrue(r.listener.outcome(batch).dispatched());
            r.router.completed(batch);
            r.step();
            assertEquals(0, r.router.stats().live());
            assertInstanceOf(ClassifyEvent.Completed.class, classifier.events("running").getLast());
            assertTrue(r.listener.violations().isEmpty(), r.listener.violations().toString());

            // An arrival after the reload resolves in the new profile: the bulk family is bulk-v2 now.
            r.submit(request("late", "bulk"));
            assertEquals("late:bulk-v2", seen.enqueued.getLast());
        }
    }

    @Test
    void shouldKeepAParkedRequestParkedAndQueueItUnderTheNewProfileWhenWoken() throws Exception {
        Moves seen = new Moves();
        List<Wakeup> parked = new ArrayList<>();
        RecordingClassifier classifier = new RecordingClassifier().deciding(request -> {
            if (request.requestId().equals("parked")) {
                parked.add(request.wakeup());
                return Classification.park(request, ClassifyRequest.NO_DEADLINE, null);
            }
            return Classification.admit(request);
        });
        RouterContext context = new RouterContext().profile(profile(BEFORE)).observer(seen);
        try (SteppedRouter r = new SteppedRouter(classifier, context).worker(1, 1000)) {
            long id = r.submit(request("parked", "bulk"));
            assertEquals(1, r.router.stats().parkedNow());

            r.router.reloadPolicy("after.yaml", AFTER, profile(AFTER));
            r.step();
            assertEquals(0, seen.reloads.get(0).requeued());
            assertEquals(1, r.router.stats().parkedNow(), "still parked");
            assertFalse(r.listener.has(id));

            parked.get(0).admit();
            r.step();
            assertTrue(r.listener.outcome(id).dispatched());
            assertEquals(List.of("parked:bulk-v2"), seen.enqueued);
        }
    }

    @Test
    void shouldGiveNewArrivalsToTheNewClassifierAndLetTheOldOneHearTheEndOfItsOwn() throws Exception {
        RecordingClassifier old = new RecordingClassifier();
        RecordingClassifier fresh = new RecordingClassifier();
        AtomicInteger oldTicks = new AtomicInteger();
        RouterContext context = new RouterContext().profile(profile(BEFORE)).classifierFactory(c -> {
            c.timers().every(Duration.ofSeconds(1).toNanos(), oldTicks::incrementAndGet);
            return old;
        });
        try (SteppedRouter r = new SteppedRouter(null, context).worker(1, 1000)) {
            long first = r.submit(request("first", "latency"));
            assertTrue(r.listener.outcome(first).dispatched());
            r.advance(Duration.ofSeconds(1));
            assertEquals(1, oldTicks.get());

            r.router.reloadPolicy("after.yaml", AFTER, profile(AFTER), c -> fresh);
            r.step();
            long second = r.submit(request("second", "latency"));
            assertEquals(List.of("classify:first", "sent:first"), old.calls());
            assertEquals(List.of("classify:second"), fresh.calls(), "queued behind first, classified by the new one");
            r.advance(Duration.ofSeconds(1));
            assertEquals(2, oldTicks.get(), "the old classifier still has a request: its tasks run on");

            r.router.responding(first);
            r.router.completed(first);
            r.step();
            assertEquals(List.of("classify:first", "sent:first", "responding:first", "completed:first"), old.calls());
            assertTrue(r.listener.outcome(second).dispatched());
            assertTrue(fresh.calls().contains("sent:second"));
            r.advance(Duration.ofSeconds(5));
            assertEquals(2, oldTicks.get(), "retired with no request left: its periodic task stopped");
            assertEquals(List.of(), r.listener.violations());
        }
    }
}
