package dev.sluice.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.KvInUseView;
import dev.sluice.core.api.RequestClassifierContext;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.host.WorkerLoad;
import dev.sluice.core.journal.JournalCapture;
import dev.sluice.core.journal.JournalRecord;
import dev.sluice.core.kv.BlockHasher;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.spi.RequestClassifier;
import dev.sluice.core.testing.SteppedRouter;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * An engine's report of its own load: what the router's bookings do not explain is the worker's outside load until
 * the next report; the router's own bookings keep counting as they happen.
 */
class WorkerLoadTest {
    private static final BlockHasher HASHER = new BlockHasher(16);
    private static final WorkerWithDpRank ONE = WorkerWithDpRank.of(1);
    private static final WorkerWithDpRank TWO = WorkerWithDpRank.of(2);

    private static AdmissionRequest prompt(String id, int from, int tokens) {
        return AdmissionRequest.builder(id).promptTokens(IntStream.range(from, from + tokens).toArray(), HASHER)
            .build();
    }

    private static void report(SteppedRouter r, WorkerWithDpRank worker, long usedBlocks, int waiting) {
        r.router.workerLoad(new WorkerLoad(worker, usedBlocks, 0, waiting));
        r.step();
    }

    @Test
    void shouldPlaceAwayFromAWorkerWhoseEngineReportsBlocksOfOthers() {
        try (SteppedRouter r = new SteppedRouter(null).worker(1, 8192).worker(2, 8192)) {
            long before = r.submit(prompt("before", 0, 64));
            assertEquals(ONE, r.listener.outcome(before).worker(), "equal costs: the lower worker id");
            r.router.completed(before);
            r.step();

            report(r, ONE, 500, 0);
            long after = r.submit(prompt("after", 1000, 64));
            assertEquals(TWO, r.listener.outcome(after).worker(), "worker 1's engine holds 500 blocks of others");
        }
    }

    @Test
    void shouldCountItsOwnBookingsOnceAndAtOnceBetweenReports() {
        try (SteppedRouter r = new SteppedRouter(null).worker(1, 8192).worker(2, 8192)) {
            long big = r.submit(prompt("big", 0, 480));
            assertEquals(ONE, r.listener.outcome(big).worker());
            r.router.responding(big);
            r.step();
            // Worker 1's engine reports exactly the router's 30 blocks; worker 2's reports 40 of someone else's.
            report(r, ONE, 30, 0);
            report(r, TWO, 40, 0);
            long next = r.submit(prompt("next", 5000, 128));
            assertEquals(ONE, r.listener.outcome(next).worker(), "30 own blocks, not 30 own plus 30 reported");

            // No report since: the router's own booking of "next" (and its prefill) still counts at once.
            long third = r.submit(prompt("third", 9000, 160));
            assertEquals(TWO, r.listener.outcome(third).worker(),
                "worker 1 now carries 38 blocks and a prefill of 128");
        }
    }

    @Test
    void shouldTreatAnEngineQueueingOthersRequestsAsBusyForQueueingClasses() {
        PolicyProfile queueing = PolicyProfile.synthetic(OptionalDouble.of(1.0), QueuePolicy.FCFS);
        try (SteppedRouter r = SteppedRouter.withProfile(null, queueing).worker(1, 8192).worker(2, 8192)) {
            report(r, ONE, 0, 2);
            long first = r.submit(prompt("first", 0, 64));
            assertEquals(TWO, r.listener.outcome(first).worker(), "worker 1's engine queues requests of others");

            report(r, TWO, 0, 3);
            long waits = r.submit(prompt("waits", 1000, 64));
            assertFalse(r.listener.has(waits), "both engines queue others' requests: it waits in its class");
            assertEquals(1, r.router.stats().queued());

            report(r, ONE, 0, 0);
            assertEquals(ONE, r.listener.outcome(waits).worker(), "worker 1 is free again");
        }
    }

    @Test
    void shouldDropAReportOfAnUnknownWorkerAndRefuseANegativeOne() {
        JournalCapture capture = new JournalCapture(529);
        try (SteppedRouter r = new SteppedRouter(null, new RouterContext().observer(capture)).worker(1, 8192)) {
            report(r, WorkerWithDpRank.of(9), 100, 1);
            report(r, ONE, 7, 0);
            List<JournalRecord.WorkerLoadRecord> recorded = capture.records().stream()
                .filter(JournalRecord.WorkerLoadRecord.class::isInstance)
                .map(JournalRecord.WorkerLoadRecord.class::cast).toList();
            assertEquals(List.of(new WorkerLoad(ONE, 7, 0, 0)), recorded.stream().map(JournalRecord
                .WorkerLoadRecord::load).toList(), "journaled as an input, the unknown worker's dropped");
            IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                () -> new WorkerLoad(ONE, -1, 0, 0));
            assertTrue(negative.getMessage().contains("-1 blocks"), negative.getMessage());
            assertThrows(NullPointerException.class, () -> r.router.workerLoad(null));
        }
    }

    /** The classifier's {@code KvInUseView}: the router's bookings (a shared prefix once) plus the outside blocks. */
    @Test
    void shouldShowTheClassifierTheKvInUseFromBookingsAndReports() {
        AtomicReference<RequestClassifierContext> seen = new AtomicReference<>();
        RouterContext context = new RouterContext().classifierFactory(c -> {
            seen.set(c);
            return new RequestClassifier() { };
        });
        try (SteppedRouter r = new SteppedRouter(null, context).worker(1, 8192)) {
            KvInUseView view = seen.get().kvInUse();
            assertEquals(OptionalLong.of(0), view.usedKvBlocks(ONE));
            assertEquals(OptionalLong.empty(), view.usedKvBlocks(TWO), "an unknown rank has no figure");
            long first = r.submit(prompt("first", 0, 64));
            r.submit(prompt("second", 0, 64));
            assertEquals(OptionalLong.of(4), view.usedKvBlocks(ONE), "two requests share 4 blocks");
            report(r, ONE, 10, 0);
            assertEquals(OptionalLong.of(10), view.usedKvBlocks(ONE), "6 blocks of others");
            r.router.completed(first);
            r.step();
            assertEquals(OptionalLong.of(10), view.usedKvBlocks(ONE), "the other request still holds 4");
        }
    }
}
