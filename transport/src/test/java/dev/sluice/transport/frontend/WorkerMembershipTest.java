package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.WorkerLoad;
import dev.sluice.core.journal.JournalCapture;
import dev.sluice.core.journal.JournalRecord;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.core.router.RouterContext;
import dev.sluice.transport.engine.Engine;
import dev.sluice.transport.engine.EngineRuntimeConfig;
import dev.sluice.transport.engine.http.HttpEngine;
import dev.sluice.transport.engine.http.HttpEngineSettings;
import dev.sluice.transport.metrics.WorkerHealthMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The workers in a manual router as membership puts them there: the configured capacity first, then the one an
 * engine publishes, kept across an unhealthy spell; a capacity heard while a worker is out never brings it back.
 */
class WorkerMembershipTest {
    private static final WorkerWithDpRank ZERO = WorkerWithDpRank.of(0);
    private static final WorkerWithDpRank ONE = WorkerWithDpRank.of(1);

    private final JournalCapture capture = new JournalCapture(529);
    private final ModelRouter router = ModelRouter.manual(new RouterContext().model("m").observer(capture));
    private final List<Engine> engines = new ArrayList<>();
    private final WorkerMembership membership;

    WorkerMembershipTest() {
        EngineRuntimeConfig config = new EngineRuntimeConfig(16_384, 16, 4096, 256, 1);
        for (int worker = 0; worker < 2; worker++) {
            engines.add(new HttpEngine(worker, HttpEngineSettings.of("http://127.0.0.1:9", "m", Duration.ofSeconds(1),
                Duration.ofSeconds(1), config)));
        }
        membership = new WorkerMembership(router, new WorkerHealthMetrics());
    }

    @AfterEach
    void close() {
        router.close();
        engines.forEach(Engine::close);
    }

    private void joinAll() {
        for (int worker = 0; worker < engines.size(); worker++) {
            membership.add(worker, engines.get(worker));
        }
    }

    /** The worker records the router took since the last call. */
    private List<JournalRecord> taken() {
        int before = capture.records().size();
        router.doWork();
        List<JournalRecord> all = capture.records();
        List<JournalRecord> taken = new ArrayList<>();
        for (JournalRecord record : all.subList(Math.min(before, all.size()), all.size())) {
            if (!(record instanceof JournalRecord.Header)) {
                taken.add(record);
            }
        }
        return taken;
    }

    private static JournalRecord joined(WorkerWithDpRank worker, long blocks) {
        return new JournalRecord.WorkerJoined(0, worker, 4096, blocks);
    }

    /** Records without their times, to compare. */
    private static List<JournalRecord> timeless(List<JournalRecord> records) {
        return records.stream().map(r -> switch (r) {
            case JournalRecord.WorkerJoined j -> new JournalRecord.WorkerJoined(0, j.worker(), j.maxNumBatchedTokens(),
                j.totalKvBlocks());
            case JournalRecord.WorkerLeft l -> new JournalRecord.WorkerLeft(0, l.worker());
            case JournalRecord.WorkerLoadRecord l -> new JournalRecord.WorkerLoadRecord(0, l.load());
            default -> r;
        }).toList();
    }

    @Test
    void shouldBookAgainstThePublishedCapacityFromNowOnAndAfterARecovery() {
        joinAll();
        assertEquals(List.of(joined(ZERO, 16_384), joined(ONE, 16_384)), timeless(taken()), "configured at first");

        membership.onCapacity(ZERO, 512);
        assertEquals(List.of(joined(ZERO, 512)), timeless(taken()), "the engine's own, at once");

        membership.onUnhealthy(0);
        assertEquals(List.of(new JournalRecord.WorkerLeft(0, ZERO)), timeless(taken()));
        membership.onCapacity(ZERO, 600);
        assertEquals(List.of(), timeless(taken()), "a capacity heard while out does not bring the worker back");

        membership.onRecovered(0);
        assertEquals(List.of(joined(ZERO, 600)), timeless(taken()), "back with the capacity it published last");
    }

    @Test
    void shouldPassLoadReportsToTheRouter() {
        joinAll();
        taken();

        membership.onLoad(new WorkerLoad(ONE, 40, 2, 3));
        assertEquals(List.of(new JournalRecord.WorkerLoadRecord(0, new WorkerLoad(ONE, 40, 2, 3))),
            timeless(taken()));
    }

    @Test
    void shouldNeverBringBackAWorkerThatWasRemoved() {
        joinAll();
        taken();

        membership.remove(1);
        assertEquals(List.of(new JournalRecord.WorkerLeft(0, ONE)), timeless(taken()));
        membership.onRecovered(1);
        membership.onCapacity(ONE, 700);
        membership.remove(1);
        assertEquals(List.of(), timeless(taken()), "neither a probe nor a scrape nor a second removal");

        membership.onUnhealthy(0);
        taken();
        membership.remove(0);
        assertEquals(List.of(), timeless(taken()), "a worker out of the router already leaves it no second time");
    }
}
