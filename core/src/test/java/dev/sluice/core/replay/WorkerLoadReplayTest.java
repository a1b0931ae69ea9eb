package dev.sluice.core.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.audit.JournalRun;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.host.WorkerLoad;
import dev.sluice.core.journal.JournalContext;
import dev.sluice.core.journal.JournalHeader;
import dev.sluice.core.journal.JournalRecord;
import dev.sluice.core.journal.JournalWriter;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.testing.SteppedRouter;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Load-dependent placements replay: the journal keeps the engines' load reports as inputs. */
class WorkerLoadReplayTest {
    @TempDir
    Path dir;

    @Test
    void shouldReplayPlacementsThatFollowedTheEnginesLoadReports() throws Exception {
        RouterContext context = new RouterContext().model("m").clock(dev.sluice.core.testing.TestClocks.started());
        try (JournalWriter journal = JournalWriter.open(new JournalContext(dir), JournalHeader.of(context, "<none>",
            "", "default", OptionalDouble.empty(), QueuePolicy.FCFS))) {
            context.observer(journal);
            try (SteppedRouter r = new SteppedRouter(null, context).worker(1, 8192).worker(2, 8192)) {
                for (int i = 0; i < 6; i++) {
                    // The busier engine alternates; without the reports every request would go to worker 1.
                    r.router.workerLoad(new WorkerLoad(WorkerWithDpRank.of(1 + i % 2), 1000, 0, 0));
                    r.router.workerLoad(new WorkerLoad(WorkerWithDpRank.of(2 - i % 2), 0, 0, 0));
                    long id = r.submit(AdmissionRequest.builder("r" + i).inputTokens(64).build());
                    r.router.completed(id);
                    r.step();
                }
            }
        }
        JournalRun run = JournalRun.read(dir, null).get(0);
        List<WorkerWithDpRank> placed = run.records().stream().filter(JournalRecord.Dispatched.class::isInstance)
            .map(rec -> ((JournalRecord.Dispatched) rec).worker()).toList();
        assertTrue(placed.contains(WorkerWithDpRank.of(1)) && placed.contains(WorkerWithDpRank.of(2)),
            placed::toString);
        DecisionComparison.Result result = ReplayVerifier.verify(run);
        assertEquals(List.of(), result.differences());
        assertEquals(6, result.dispatches());
    }
}
