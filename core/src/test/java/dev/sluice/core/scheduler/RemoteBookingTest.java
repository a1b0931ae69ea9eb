package dev.sluice.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.host.BookingObserver;
import dev.sluice.core.host.RemoteBooking;
import dev.sluice.core.kv.BlockHasher;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.testing.SteppedRouter;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Other router replicas' bookings count in a worker's load as the router's own: busy gating and placement see them
 * until the replica releases them or is gone; the booking observer hears the router's own bookings.
 */
class RemoteBookingTest {
    private static final BlockHasher HASHER = new BlockHasher(16);
    private static final WorkerWithDpRank ONE = WorkerWithDpRank.of(1);
    private static final WorkerWithDpRank TWO = WorkerWithDpRank.of(2);
    private static final PolicyProfile QUEUEING = PolicyProfile.synthetic(OptionalDouble.of(1.0), QueuePolicy.FCFS);

    private static AdmissionRequest prompt(String id, int from, int tokens) {
        return AdmissionRequest.builder(id).promptTokens(IntStream.range(from, from + tokens).toArray(), HASHER)
            .build();
    }

    private static RemoteBooking booking(String replica, long key, WorkerWithDpRank worker, long prefill) {
        return new RemoteBooking(replica, key, worker, new long[] {key * 31, key * 37}, prefill, 0);
    }

    @Test
    void shouldGateOnAWorkerThatAnotherReplicaFilled() {
        try (SteppedRouter r = SteppedRouter.withProfile(null, QUEUEING).worker(1, 1000).worker(2, 1000)) {
            r.router.remoteBooked(booking("b#1", 7, ONE, 1001));
            r.step();
            long first = r.submit(prompt("first", 0, 64));
            assertEquals(TWO, r.listener.outcome(first).worker(),
                "worker 1 carries more prefill of replica b than it batches");

            r.router.remoteBooked(booking("c#1", 7, TWO, 1001));
            r.step();
            long waits = r.submit(prompt("waits", 5000, 64));
            assertFalse(r.listener.has(waits), "every worker is busy with the fleet's prefill: it queues");

            r.router.remotePrefillDone("b#1", 7);
            r.step();
            assertEquals(ONE, r.listener.outcome(waits).worker(), "replica b's first token freed worker 1");
        }
    }

    @Test
    void shouldReleaseEveryBookingOfAReplicaThatIsGone() {
        try (SteppedRouter r = SteppedRouter.withProfile(null, QUEUEING).worker(1, 1000)) {
            r.router.remoteBooked(booking("b#1", 1, ONE, 600));
            r.router.remoteBooked(booking("b#1", 2, ONE, 600));
            r.router.remoteBooked(booking("b#1", 3, ONE, 600));
            r.step();
            long waits = r.submit(prompt("waits", 0, 64));
            assertFalse(r.listener.has(waits), "1800 prefill tokens of replica b (the repeated key once)");
            r.router.remoteReleased("b#1", 1);
            r.step();
            assertFalse(r.listener.has(waits), "1200 left: still busy above the 1000 tokens");
            r.router.remoteReplicaGone("b#1");
            r.step();
            assertEquals(ONE, r.listener.outcome(waits).worker(), "replica b's lease ran out: its load is gone");
        }
    }

    @Test
    void shouldDropABookingOnAWorkerThisRouterDoesNotKnow() {
        List<String> heard = new ArrayList<>();
        BookingObserver observer = new BookingObserver() {
            @Override
            public void onRemoteApplied(RemoteBooking booking, boolean applied) {
                heard.add(booking.key() + ":" + applied);
            }
        };
        RouterContext context = new RouterContext().profile(QUEUEING).bookingObserver(observer);
        try (SteppedRouter r = new SteppedRouter(null, context).worker(1, 1000)) {
            r.router.remoteBooked(booking("b#1", 1, WorkerWithDpRank.of(9), 1000));
            r.router.remoteBooked(booking("b#1", 2, ONE, 10));
            r.step();
            assertEquals(List.of("1:false", "2:true"), heard);
            long placed = r.submit(prompt("placed", 0, 64));
            assertEquals(ONE, r.listener.outcome(placed).worker(), "nothing was booked on worker 9's behalf");
        }
    }

    @Test
    void shouldTellTheObserverOfItsOwnBookingsPrefillAndRelease() {
        List<String> heard = new ArrayList<>();
        BookingObserver observer = new BookingObserver() {
            @Override
            public void onBooked(long key, WorkerWithDpRank worker, long[] hashes, int count, long prefill) {
                heard.add("booked " + worker + " blocks=" + count + " prefill=" + prefill);
            }

            @Override
            public void onPrefillDone(long key) {
                heard.add("prefill done");
            }

            @Override
            public void onReleased(long key) {
                heard.add("released");
            }
        };
        try (SteppedRouter r = new SteppedRouter(null, new RouterContext().bookingObserver(observer)).worker(1, 1000)) {
            long id = r.submit(prompt("one", 0, 64));
            r.router.responding(id);
            r.router.completed(id);
            r.step();
            assertEquals(List.of("booked worker 1/0 blocks=4 prefill=64", "prefill done", "released"), heard);
        }
    }
}
