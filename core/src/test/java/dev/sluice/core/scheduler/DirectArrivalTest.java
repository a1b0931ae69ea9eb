package dev.sluice.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.DefaultSelectorSettings;
import dev.sluice.core.api.WorkerSelectorContext;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.PolicyClassSpec;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.host.RequestView;
import dev.sluice.core.host.SchedulerObserver;
import dev.sluice.core.select.DefaultWorkerSelector;
import dev.sluice.core.testing.RecordingClassifier;
import dev.sluice.core.testing.RecordingListener;
import dev.sluice.core.testing.TestClocks;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;

/**
 * The combining mode's direct arrival, stepped on the test's thread: the test is the producer, and plays the
 * scheduler thread by calling the role's {@code doWork} and {@code idle} itself. An arrival on an idle scheduler skips
 * the ring; one that finds messages pending goes behind them through the ring; one that finds the role held is left to
 * its owner; and a direct arrival gives the observer (the journal) the same events, in the same order and at the same
 * instants, as the same arrival through the ring.
 */
class DirectArrivalTest {
    private final CachedNanoClock clock = TestClocks.started();
    private final List<Long> parks = new ArrayList<>();
    private final RecordingListener listener = new RecordingListener();
    private final List<String> events = new ArrayList<>();

    /** Records every input and decision as the journal sees them: what, when, about which request. */
    private final SchedulerObserver recorder = new SchedulerObserver() {
        @Override
        public void onArrived(long nowNs, RequestView request) {
            events.add("arrived " + request.requestId() + " at " + nowNs + " (ingress " + request.ingressAt() + ")");
        }

        @Override
        public void onClassified(long nowNs, RequestView request, Classification.Kind decision) {
            events.add("classified " + request.requestId() + " " + decision + " at " + nowNs);
        }

        @Override
        public void onEnqueued(long nowNs, RequestView request, PolicyClassSpec policyClass) {
            events.add("enqueued " + request.requestId() + " at " + nowNs);
        }

        @Override
        public void onRejected(long nowNs, RequestView request, AdmissionError error) {
            events.add("rejected " + request.requestId() + " " + error.reason() + " at " + nowNs);
        }

        @Override
        public void onDispatched(long nowNs, RequestView request, WorkerWithDpRank worker) {
            events.add("dispatched " + request.requestId() + " to " + worker + " at " + nowNs);
        }

        @Override
        public void onCompleted(long nowNs, RequestView request, long contextTokens) {
            events.add("completed " + request.requestId() + " at " + nowNs);
        }

        @Override
        public void onWorkerJoined(long nowNs, WorkerWithDpRank worker, long maxNumBatchedTokens,
                                   OptionalLong totalKvBlocks) {
            events.add("joined " + worker + " at " + nowNs);
        }
    };

    /** One router's scheduler without a thread of its own: the ingress, and the role the test plays. */
    private record Scheduler(IngressProxy ingress, CombiningScheduler role, SchedulerAgent agent) {
    }

    /** A combining scheduler when {@code spinNs} is at least 0, else a plain one stepped through its agent. */
    private Scheduler scheduler(long spinNs) {
        CombiningScheduler role = spinNs >= 0
            ? new CombiningScheduler(spinNs, 1_000_000L, 1_000_000L, parks::add) : null;
        IngressProxy ingress = role != null ? new IngressProxy(16, role) : new IngressProxy(16, () -> { });
        RouterCounters counters = new RouterCounters("m");
        WorkerTable workers = new WorkerTable(16, DefaultWorkerSelector.factory(DefaultSelectorSettings.DEFAULTS)
            .create(new WorkerSelectorContext("m", 16, new SplittableRandom(1))));
        WakeableIdleStrategy wakeable = new WakeableIdleStrategy(1_000_000L);
        SchedulerParts parts = new SchedulerParts("m", clock,
            PolicyProfile.synthetic(OptionalDouble.empty(), QueuePolicy.FCFS), ingress,
            new RouterSignals(role != null ? role::wakeScheduler : wakeable::wake), wakeable, role, counters, workers,
            new PeriodicTasks(), new ClassifierHost(new RecordingClassifier(), null, counters), null, recorder, 64, 16,
            64, 0);
        SchedulerAgent agent = new SchedulerAgent(parts, null);
        if (role != null) {
            role.attach(agent);
        }
        return new Scheduler(ingress, role, agent);
    }

    private static AdmissionRequest request(String id) {
        return AdmissionRequest.builder(id).inputTokens(8).build();
    }

    @Test
    void shouldRunAnArrivalOnAnIdleSchedulerWithoutARingSlot() {
        Scheduler s = scheduler(0);
        s.ingress.workerJoined(WorkerWithDpRank.of(1), 8192, OptionalLong.empty());
        long cursor = s.ingress.ring().getCursor();
        clock.advance(5);
        assertTrue(s.ingress.tryArriveNow(1, request("a"), listener, clock));
        assertTrue(listener.outcome(1).dispatched(), "decided before the submit returned: " + listener.inOrder());
        assertEquals(cursor, s.ingress.ring().getCursor(), "no ring slot claimed");
        assertEquals(CombiningScheduler.FREE, s.role.owner(), "the role given up again");
        long now = TestClocks.START_NS + 5;
        assertTrue(events.contains("arrived a at " + now + " (ingress " + now + ")"),
            "stamped with the cycle's clock reading: " + events);
    }

    @Test
    void shouldPublishAnArrivalBehindPendingMessagesSoItNeverOvertakesThem() throws Exception {
        Scheduler s = scheduler(0);
        // The test, as the scheduler thread, holds the role while a worker joins: the join waits on the ring.
        s.role.doWork();
        s.ingress.workerJoined(WorkerWithDpRank.of(1), 8192, OptionalLong.empty());
        s.role.idle(0);
        assertEquals(CombiningScheduler.FREE, s.role.owner());
        assertTrue(parks.isEmpty(), "work pending: the scheduler did not park");
        long cursor = s.ingress.ring().getCursor();
        assertTrue(s.ingress.tryArriveNow(1, request("a"), listener, clock));
        // Taken directly, the arrival would have found no worker and been refused with no_endpoints.
        assertTrue(listener.outcome(1).dispatched(), "the join went first: " + listener.inOrder());
        assertEquals(cursor + 1, s.ingress.ring().getCursor(), "the arrival went through the ring");
        assertEquals(List.of("joined", "arrived"), events.subList(0, 2).stream().map(e -> e.split(" ")[0]).toList());
        assertEquals(CombiningScheduler.FREE, s.role.owner());
    }

    @Test
    void shouldLeaveAnArrivalOnTheRingWhileTheSchedulerThreadHoldsTheRole() throws Exception {
        Scheduler s = scheduler(Long.MAX_VALUE);
        s.role.doWork();
        s.ingress.workerJoined(WorkerWithDpRank.of(1), 8192, OptionalLong.empty());
        s.role.doWork();
        long cursor = s.ingress.ring().getCursor();
        assertTrue(s.ingress.tryArrive(1, 3, request("a"), listener));
        assertFalse(listener.has(1), "no cycle on the producer while the scheduler holds the role");
        assertEquals(cursor + 1, s.ingress.ring().getCursor());
        assertTrue(s.role.doWork() > 0);
        assertTrue(listener.outcome(1).dispatched());
        assertEquals(CombiningScheduler.SCHEDULER, s.role.owner());
    }

    @Test
    void shouldNotRunAnArrivalOnAProducerAfterTheRouterClosed() {
        Scheduler s = scheduler(0);
        s.ingress.workerJoined(WorkerWithDpRank.of(1), 8192, OptionalLong.empty());
        s.role.onClose();
        long cursor = s.ingress.ring().getCursor();
        assertTrue(s.ingress.tryArrive(1, 3, request("a"), listener), "published; the closing scheduler owns it");
        assertFalse(listener.has(1));
        assertEquals(cursor + 1, s.ingress.ring().getCursor());
        s.ingress.close();
        assertFalse(s.ingress.tryArriveNow(2, request("b"), listener, clock), "a closed ingress refuses");
    }

    @Test
    void shouldGiveTheObserverTheSameEventsAsAnArrivalThroughTheRing() {
        List<String> direct = run(scheduler(0), new RecordingListener());
        List<String> viaRing = run(scheduler(-1), new RecordingListener());
        assertEquals(viaRing, direct);
        assertTrue(direct.contains("completed r2 at " + (TestClocks.START_NS + 20)), direct.toString());
    }

    /** Two requests, each submitted at its own instant and completed at the next; returns the observer's events. */
    private List<String> run(Scheduler s, RecordingListener outcomes) {
        events.clear();
        clock.update(TestClocks.START_NS);
        s.ingress.workerJoined(WorkerWithDpRank.of(1), 8192, OptionalLong.empty());
        step(s);
        for (int i = 1; i <= 2; i++) {
            clock.advance(5);
            assertTrue(s.ingress.tryArrive(i, clock.nanoTime() - 1, request("r" + i), outcomes));
            step(s);
            clock.advance(5);
            s.ingress.completed(i);
            step(s);
        }
        return List.copyOf(events);
    }

    /** The plain scheduler is stepped by the test; the combining one ran on the test's thread already. */
    private static void step(Scheduler s) {
        if (s.role == null) {
            while (s.agent.doWork() > 0) {
                // Until idle.
            }
        }
    }
}
