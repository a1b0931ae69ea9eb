package dev.sluice.perf.admission;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.AdmissionListener;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.core.router.RouterContext;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
 * Admission as a frontend thread sees it: submit to a router running its own scheduler thread, wait (spinning)
 * until the dispatch comes back, then report completion. Includes the hand-off both ways and the wake-up of an
 * idle scheduler; sampled, so the report has percentiles.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RoundTripBench {
    private ModelRouter router;
    private AdmissionRequest request;
    private final AtomicLong dispatched = new AtomicLong();
    private final AdmissionListener listener = new AdmissionListener() {
        @Override
        public void onDispatched(long lifecycleId, WorkerWithDpRank worker) {
            dispatched.set(lifecycleId);
        }

        @Override
        public void onRejected(long lifecycleId, AdmissionError error) {
            dispatched.set(-lifecycleId);
        }
    };

    @Setup(Level.Trial)
    public void setUp() {
        router = ModelRouter.start(new RouterContext());
        for (int w = 0; w < 8; w++) {
            router.workerJoined(WorkerWithDpRank.of(w), 8192, OptionalLong.of(4096));
        }
        request = AdmissionRequest.builder("round-trip").inputTokens(512).build();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        router.close();
    }

    @Benchmark
    public long submitAwaitDispatch() {
        long id = router.submit(request, listener);
        while (dispatched.get() != id) {
            if (dispatched.get() == -id) {
                throw new IllegalStateException("rejected");
            }
            Thread.onSpinWait();
        }
        router.completed(id);
        return id;
    }
}
