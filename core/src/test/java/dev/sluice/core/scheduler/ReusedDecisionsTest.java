package dev.sluice.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyEvent;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.spi.RequestClassifier;
import dev.sluice.core.testing.SteppedRouter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * A stateful classifier's path allocates nothing: each pooled request answers {@code Classification.admit} with one
 * decision, and events are one reused instance per kind, carrying the right values at each delivery.
 */
class ReusedDecisionsTest {
    /** Remembers each decision and event instance, and the values each event had when it was delivered. */
    static final class Remembering implements RequestClassifier {
        final List<Classification> decisions = new ArrayList<>();
        final List<ClassifyEvent> instances = new ArrayList<>();
        final List<ClassifyEvent> values = new ArrayList<>();

        @Override
        public Classification classify(ClassifyRequest request) {
            request.setDueAt(request.ingressAt() + 1_000_000_000L);
            Classification decision = Classification.admit(request);
            assertSame(decision, Classification.admit(request), "one admit decision per request");
            decisions.add(decision);
            return decision;
        }

        @Override
        public void onEvent(ClassifyEvent event) {
            instances.add(event);
            values.add(event.copy());
        }
    }

    @Test
    void shouldReuseTheAdmitDecisionAndEachEventInstanceWithFreshValues() {
        Remembering classifier = new Remembering();
        try (SteppedRouter r = new SteppedRouter(classifier).worker(1, 8192)) {
            for (String id : List.of("first", "second")) {
                long lifecycle = r.submit(id, 10);
                assertTrue(r.listener.outcome(lifecycle).dispatched(), id);
                r.router.responding(lifecycle);
                r.router.completed(lifecycle, 42);
                r.step();
            }
            long aborted = r.submit("third", 10);
            r.router.aborted(aborted, new IllegalStateException("client left"));
            r.step();
        }
        WorkerWithDpRank worker = WorkerWithDpRank.of(1);
        assertEquals(List.of(
            new ClassifyEvent.Sent("first", worker), new ClassifyEvent.Responding("first", worker),
            new ClassifyEvent.Completed("first", worker, OptionalLong.of(42)),
            new ClassifyEvent.Sent("second", worker), new ClassifyEvent.Responding("second", worker),
            new ClassifyEvent.Completed("second", worker, OptionalLong.of(42)),
            new ClassifyEvent.Sent("third", worker)), classifier.values.subList(0, 7));
        ClassifyEvent.Aborted last = (ClassifyEvent.Aborted) classifier.values.get(7);
        assertEquals("third", last.requestId());
        assertEquals(Optional.of(worker), last.worker());
        assertEquals("client left", last.causeOrNull().getMessage());
        assertSame(classifier.instances.get(0), classifier.instances.get(3), "Sent is one reused instance");
        assertSame(classifier.instances.get(1), classifier.instances.get(4), "so is Responding");
        assertSame(classifier.instances.get(2), classifier.instances.get(5), "and Completed");
        assertNotSame(classifier.values.get(0), classifier.values.get(3), "a copy is a value of its own");
        assertEquals(3, classifier.decisions.size());
    }

    @Test
    void shouldTellAReportedContextFromAnUnknownOneWithoutOptional() {
        ClassifyEvent.Completed known = new ClassifyEvent.Completed("a", WorkerWithDpRank.of(1), OptionalLong.of(7));
        ClassifyEvent.Completed unknown = new ClassifyEvent.Completed("a", WorkerWithDpRank.of(1),
            OptionalLong.empty());
        assertTrue(known.hasContextTokens());
        assertEquals(7, known.contextTokenCount());
        assertEquals(ClassifyEvent.Completed.UNKNOWN, unknown.contextTokenCount());
        assertEquals(OptionalLong.empty(), unknown.contextTokens());
        assertEquals(known, known.copy());
        assertEquals(known.hashCode(), known.copy().hashCode());
    }
}
