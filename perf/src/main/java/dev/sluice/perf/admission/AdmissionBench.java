package dev.sluice.perf.admission;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.AdmissionListener;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.core.router.RouterContext;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
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
 * One whole pass-through lifecycle on the scheduler, single-threaded: ring publish of the arrival, classify
 * (pass-through), enqueue, dispatch pick among the workers, then the terminal report and its release. The router is
 * stepped by the benchmark thread, so this measures the scheduler's own work, and {@code -prof gc} shows whether the
 * steady state allocates.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AdmissionBench {
    @Param({"8"})
    int workers;

    private ModelRouter router;
    private AdmissionRequest request;
    private final Outcome outcome = new Outcome();

    /** The benchmark's listener: remembers the last outcome, allocates nothing. */
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
    public void setUp() {
        router = ModelRouter.manual(new RouterContext());
        for (int w = 0; w < workers; w++) {
            router.workerJoined(WorkerWithDpRank.of(w), 8192, OptionalLong.of(4096));
        }
        router.doWork();
        request = AdmissionRequest.builder("bench-request").inputTokens(512).build();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        router.close();
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
