package dev.sluice.perf.baseline;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.spi.RequestClassifier;
import java.util.concurrent.TimeUnit;
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
 * The one-request lifecycle of the admission benches' {@code CombineBench} on the conventional
 * {@link BaselineController}, the latency harness's {@code baseline} decision without the harness: {@code submit}
 * classifies (pass-through), queues and dispatches among 8 workers under the controller's lock on this thread, and the
 * instant engine completes the request from the dispatch callback, so one call is one whole lifecycle. Run beside
 * {@code CombineBench} to compare the two in one JMH run.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class BaselineBench {
    private static final int IDS = 1024;
    private static final int WORKERS = 8;
    private static final long INPUT_TOKENS = 512;

    private BaselineController controller;
    private final String[] requestIds = new String[IDS];
    private final InstantEngine engine = new InstantEngine();
    private int next;

    /** Completes each dispatched request from its dispatch callback, as the harness's instant engine does. */
    final class InstantEngine implements BaselineController.Listener {
        long dispatched;
        long rejections;

        @Override
        public void onDispatched(long id, WorkerWithDpRank worker) {
            controller.completed(id, worker);
            dispatched = id;
        }

        @Override
        public void onRejected(long id, AdmissionError error) {
            rejections++;
            dispatched = id;
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        controller = new BaselineController(new RequestClassifier() { }, WORKERS);
        for (int i = 0; i < IDS; i++) {
            requestIds[i] = "baseline-" + i;
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (engine.rejections > 0) {
            throw new IllegalStateException(engine.rejections + " requests were rejected");
        }
    }

    @Benchmark
    public long submitDispatchComplete() {
        String requestId = requestIds[next];
        next = (next + 1) & (IDS - 1);
        long id = controller.submit(requestId, INPUT_TOKENS, System.nanoTime(), engine);
        if (engine.dispatched != id) {
            throw new IllegalStateException("request " + id + " was not answered on the submitting thread");
        }
        return id;
    }
}
