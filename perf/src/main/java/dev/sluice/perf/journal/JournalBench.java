package dev.sluice.perf.journal;

import dev.sluice.core.api.Classification;
import dev.sluice.core.config.PolicyClassSpec;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.journal.FailurePolicy;
import dev.sluice.core.journal.JournalContext;
import dev.sluice.core.journal.JournalException;
import dev.sluice.core.journal.JournalHeader;
import dev.sluice.core.journal.JournalWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The journal's cost per record on the scheduler thread: one observer callback encoded and appended to the
 * Chronicle Queue (memory-mapped; no fsync, as in production). The largest record (an arrival with its strings),
 * a middle one (enqueued) and the smallest common one (dispatched). Sample time gives the p99; {@code -prof gc}
 * whether a record allocates. The queue lives in a temporary directory deleted after the trial.
 */
@State(Scope.Thread)
@BenchmarkMode({Mode.AverageTime, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class JournalBench {
    private static final PolicyClassSpec CLASS = PolicyClassSpec.explicit("interactive_short", QueuePolicy.FCFS, 2048);

    private Path directory;
    private JournalWriter journal;
    private final BenchRequest request = new BenchRequest();
    private long now;

    @Setup(Level.Trial)
    public void open() throws IOException, JournalException {
        directory = Files.createTempDirectory("sluice-journal-bench");
        journal = JournalWriter.open(new JournalContext(directory).failurePolicy(FailurePolicy.FAIL_CLOSED),
            new JournalHeader("bench", "bench.yaml", "", "none", 529, 1 << 16, 100_000, 16, Double.NaN,
                QueuePolicy.FCFS, 0));
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        journal.close();
        if (journal.recordsDropped() > 0) {
            throw new IllegalStateException(journal.recordsDropped() + " records were dropped");
        }
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }

    @Benchmark
    public void arrived() {
        journal.onArrived(++now, request);
    }

    @Benchmark
    public void enqueued() {
        journal.onEnqueued(++now, request, CLASS);
    }

    @Benchmark
    public void dispatched() {
        journal.onDispatched(++now, request, BenchRequest.WORKER);
    }

    @Benchmark
    public void classified() {
        journal.onClassified(++now, request, Classification.Kind.ADMIT);
    }
}
