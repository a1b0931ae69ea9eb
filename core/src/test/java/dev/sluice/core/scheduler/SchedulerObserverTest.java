package dev.sluice.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.PolicyClassSpec;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.host.CompositeObserver;
import dev.sluice.core.host.RequestView;
import dev.sluice.core.host.SchedulerObserver;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.testing.RecordingClassifier;
import dev.sluice.core.testing.SteppedRouter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The observer seam sees every input and decision in order, and cannot break admission. */
class SchedulerObserverTest {

    /** Writes one line per callback. */
    static final class Transcript implements SchedulerObserver {
        final List<String> lines = new ArrayList<>();

        @Override
        public void onArrived(long nowNs, RequestView request) {
            lines.add("arrived " + request.requestId() + " " + request.inputTokens());
        }

        @Override
        public void onRefused(long nowNs, long lifecycleId, AdmissionRequest request, AdmissionError error) {
            lines.add("refused " + request.requestId() + " " + error.reason());
        }

        @Override
        public void onClassified(long nowNs, RequestView request, Classification.Kind decision) {
            lines.add("classified " + request.requestId() + " " + decision);
        }

        @Override
        public void onEnqueued(long nowNs, RequestView request, PolicyClassSpec policyClass) {
            lines.add("enqueued " + request.requestId() + " " + policyClass.name() + " cost " + request.costTokens());
        }

        @Override
        public void onRejected(long nowNs, RequestView request, AdmissionError error) {
            lines.add("rejected " + request.requestId() + " " + error.reason());
        }

        @Override
        public void onDispatched(long nowNs, RequestView request, WorkerWithDpRank worker) {
            lines.add("dispatched " + request.requestId() + " " + worker.workerId());
        }

        @Override
        public void onResponding(long nowNs, RequestView request) {
            lines.add("responding " + request.requestId());
        }

        @Override
        public void onCompleted(long nowNs, RequestView request, long contextTokens) {
            lines.add("completed " + request.requestId() + " " + contextTokens);
        }

        @Override
        public void onAborted(long nowNs, RequestView request, Throwable cause) {
            lines.add("aborted " + request.requestId());
        }

        @Override
        public void onWorkerJoined(long nowNs, WorkerWithDpRank worker, long maxNumBatchedTokens,
                                   OptionalLong totalKvBlocks) {
            lines.add("joined " + worker.workerId());
        }
    }

    @Test
    void shouldSeeEveryInputAndDecisionInOrder() {
        Transcript transcript = new Transcript();
        RecordingClassifier classifier = new RecordingClassifier().deciding(req -> {
            if (req.requestId().equals("late")) {
                req.setDueAt(req.ingressAt() - 1);
            }
            return Classification.admit(req);
        });
        try (SteppedRouter r = new SteppedRouter(classifier, new RouterContext().observer(transcript))
            .worker(3, 8192)) {
            long id = r.submit("a", 40);
            r.router.responding(id);
            r.router.completed(id, 42);
            r.step();
            r.submit("late", 10);
            long live = r.submit("b", 1);
            r.submit("b", 1);
            r.router.aborted(live, null);
            r.step();
        }
        assertEquals(List.of("joined 3", "arrived a 40", "classified a ADMIT", "enqueued a default cost 40",
            "dispatched a 3", "responding a", "completed a 42", "arrived late 10", "classified late ADMIT",
            "rejected late deadline_exceeded", "arrived b 1", "classified b ADMIT", "enqueued b default cost 1",
            "dispatched b 3", "refused b duplicate_request_id", "aborted b"), transcript.lines);
    }

    @Test
    void shouldKeepAdmittingWhenTheObserverThrows() {
        SchedulerObserver broken = new SchedulerObserver() {
            @Override
            public void onDispatched(long nowNs, RequestView request, WorkerWithDpRank worker) {
                throw new IllegalStateException("journal disk full");
            }
        };
        try (SteppedRouter r = new SteppedRouter(null, new RouterContext().observer(broken)).worker(1, 8192)) {
            long id = r.submit("a", 1);
            assertTrue(r.listener.outcome(id).dispatched());
            r.router.completed(id);
            r.step();
            assertEquals(0, r.router.stats().live());
        }
    }

    @Test
    void shouldStillCallTheNextObserverWhenOneThrows() {
        Transcript transcript = new Transcript();
        SchedulerObserver broken = new SchedulerObserver() {
            @Override
            public void onDispatched(long nowNs, RequestView request, WorkerWithDpRank worker) {
                throw new IllegalStateException("journal disk full");
            }
        };
        RouterContext context = new RouterContext().observer(CompositeObserver.of(broken, transcript));
        try (SteppedRouter r = new SteppedRouter(null, context).worker(1, 8192)) {
            r.submit("a", 1);
        }
        assertTrue(transcript.lines.contains("dispatched a 1"), transcript.lines::toString);
    }

    @Test
    void shouldReportParkDecisionsWhenTheDeadlineDecides() {
        Transcript transcript = new Transcript();
        RecordingClassifier parks = new RecordingClassifier().deciding(req -> Classification.park(req,
            req.ingressAt() + Duration.ofSeconds(1).toNanos(), null));
        try (SteppedRouter r = new SteppedRouter(parks, new RouterContext().observer(transcript)).worker(1, 8192)) {
            r.submit("p", 5);
            r.advance(Duration.ofSeconds(1));
        }
        assertEquals(List.of("joined 1", "arrived p 5", "classified p PARK", "classified p ADMIT",
            "enqueued p default cost 5", "dispatched p 1"), transcript.lines.subList(0, 6));
    }
}
