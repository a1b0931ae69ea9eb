package dev.sluice.perf.admission;

import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyEvent;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.spi.RequestClassifier;
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
 * {@link AdmissionBench}'s lifecycle under a stateful classifier: one that sets each request's policy class and
 * queue deadline before admitting it, and observes every lifecycle event ({@code Sent}, {@code Responding},
 * {@code Completed} with the context tokens reported), keeping counters per kind. The router is stepped by the
 * benchmark thread on a fixed clock; {@code -prof gc} shows what one decision with its events allocates.
 *
 * <p>Run: {@code java -jar perf/target/benchmarks.jar StatefulClassifierBench -prof gc}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class StatefulClassifierBench {
    private static final long NOW = TimeUnit.SECONDS.toNanos(1000);

    @Param({"8"})
    int workers;

    private ModelRouter router;
    private AdmissionRequest request;
    private Observing classifier;
    private final AdmissionBench.Outcome outcome = new AdmissionBench.Outcome();

    /** Sets class and deadline, admits, and counts the events it sees; allocates nothing itself. */
    static final class Observing implements RequestClassifier {
        long sent;
        long responding;
        long completed;
        long aborted;
        long contextTokens;

        @Override
        public Classification classify(ClassifyRequest classifyRequest) {
            classifyRequest.setPolicyClass(PolicyProfile.DEFAULT_CLASS);
            classifyRequest.setDueAt(classifyRequest.ingressAt() + TimeUnit.SECONDS.toNanos(5));
            return Classification.admit(classifyRequest);
        }

        @Override
        public void onEvent(ClassifyEvent event) {
            switch (event) {
                case ClassifyEvent.Sent ignored -> sent++;
                case ClassifyEvent.Responding ignored -> responding++;
                case ClassifyEvent.Completed done -> {
                    completed++;
                    if (done.hasContextTokens()) {
                        contextTokens += done.contextTokenCount();
                    }
                }
                case ClassifyEvent.Aborted ignored -> aborted++;
            }
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        classifier = new Observing();
        router = ModelRouter.manual(new RouterContext().clock(() -> NOW).classifierFactory(c -> classifier));
        for (int w = 0; w < workers; w++) {
            router.workerJoined(WorkerWithDpRank.of(w), 8192, OptionalLong.of(4096));
        }
        router.doWork();
        request = AdmissionRequest.builder("bench-request").inputTokens(512).build();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        router.close();
        if (outcome.rejections > 0 || classifier.aborted > 0 || classifier.sent != classifier.completed) {
            throw new IllegalStateException(outcome.rejections + " rejected, " + classifier.aborted + " aborted, "
                + classifier.sent + " sent, " + classifier.completed + " completed");
        }
    }

    @Benchmark
    public long admitDispatchRespondComplete() {
        long id = router.submit(request, NOW, outcome);
        router.doWork();
        router.responding(id);
        router.completed(id, 600);
        router.doWork();
        return outcome.dispatchedId;
    }
}
