package dev.sluice.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.host.WorkerLoad;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.spi.WorkerSelector;
import dev.sluice.core.testing.SteppedRouter;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/**
 * Which ranks placement offers the selector: for a class that queues, only those not busy for it; for a class that
 * never queues, all of them. The request goes to the rank behind the candidate the selector chose, wherever the busy
 * ranks left gaps in the worker order.
 */
class BusyPlacementTest {
    /** The candidates of each selection, by worker id; the selector takes the last one. */
    private final List<List<Long>> offered = new ArrayList<>();
    private final WorkerSelector takesTheLast = inputs -> {
        List<Long> ids = new ArrayList<>();
        for (int c = 0; c < inputs.candidateCount(); c++) {
            ids.add(inputs.worker(c).workerId());
        }
        offered.add(ids);
        return inputs.candidateCount() - 1;
    };

    private SteppedRouter fleet(OptionalDouble queueThreshold) {
        RouterContext context = new RouterContext().profile(PolicyProfile.synthetic(queueThreshold, QueuePolicy.FCFS))
            .workerSelector(ignored -> takesTheLast);
        SteppedRouter r = new SteppedRouter(null, context);
        for (long id = 1; id <= 5; id++) {
            r.worker(id, 8192);
        }
        // Engines 2 and 5 queue requests the router did not send: busy for a class that queues.
        r.router.workerLoad(new WorkerLoad(WorkerWithDpRank.of(2), 0, 0, 1));
        r.router.workerLoad(new WorkerLoad(WorkerWithDpRank.of(5), 0, 0, 3));
        r.step();
        return r;
    }

    @Test
    void shouldOfferAQueueingClassTheRanksNotBusyAndPlaceOnTheChosenOne() {
        try (SteppedRouter r = fleet(OptionalDouble.of(0.9))) {
            long id = r.submit("queues", 64);
            assertEquals(List.of(List.of(1L, 3L, 4L)), offered, "2 and 5 are busy");
            assertEquals(WorkerWithDpRank.of(4), r.listener.outcome(id).worker(), "the last candidate is rank 4");
        }
    }

    @Test
    void shouldOfferAClassThatNeverQueuesEveryRank() {
        try (SteppedRouter r = fleet(OptionalDouble.empty())) {
            long id = r.submit("never-queues", 64);
            assertEquals(List.of(List.of(1L, 2L, 3L, 4L, 5L)), offered);
            assertEquals(WorkerWithDpRank.of(5), r.listener.outcome(id).worker());
        }
    }
}
