package dev.sluice.perf.journal;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.host.AdmissionListener;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.journal.JournalContext;
import dev.sluice.core.journal.JournalException;
import dev.sluice.core.journal.JournalHeader;
import dev.sluice.core.journal.JournalWriter;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.core.router.RouterContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * {@code AdmissionBench}'s whole pass-through lifecycle (arrive, classify, enqueue, dispatch, complete: five
 * journal records) with and without the journal installed, to show what journaling adds to the scheduler.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class JournaledAdmissionBench {
    @Param({"false", "true"})
    boolean journaled;

    private Path directory;
    private JournalWriter journal;
    private ModelRouter router;
    private final AdmissionRequest request = AdmissionRequest.builder("bench-request").inputTokens(512).build();
    private final Outcome outcome = new Outcome();

    /** Remembers the last outcome; allocates nothing. */
    static final class Outcome implements AdmissionListener {
        long dispatchedId;
        long rejections;

        @Override
        public void onDispatched(long lifecycleId, WorkerWithDpRank worker) {
            dispatchedId = lifecycleId;
        }

        @Override
        public void onRejected(long lifecycleId, AdmissionError error) {
            rejections++;
        }
    }

    @Setup(Level.Trial)
    public void setUp() throws IOException, JournalException {
        RouterContext context = new RouterContext();
        if (journaled) {
            directory = Files.createTempDirectory("sluice-journal-bench");
            journal = JournalWriter.open(new JournalContext(directory), JournalHeader.of(context, "none", "", "none",
                java.util.OptionalDouble.empty(), QueuePolicy.FCFS));
            context.observer(journal);
        }
        router = ModelRouter.manual(context);
        for (int w = 0; w < 8; w++) {
            router.workerJoined(WorkerWithDpRank.of(w), 8192, OptionalLong.of(4096));
        }
        router.doWork();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        router.close();
        if (journal != null) {
            journal.close();
            try (Stream<Path> files = Files.walk(directory)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(file);
                }
            }
        }
        if (outcome.rejections > 0) {
            throw new IllegalStateException(outcome.rejections + " requests were rejected");
        }
    }

    @Benchmark
    public long admitDispatchComplete() {
        long id = router.submit(request, 0L, outcome);
        router.doWork();
        router.completed(id);
        router.doWork();
        return outcome.dispatchedId;
    }
}
