package dev.sluice.perf.admission;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.host.AdmissionListener;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.core.router.RouterContext;
import java.util.OptionalDouble;
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
 * The latency harness's {@code sluice-combine} decision, without the harness: {@code submit} on a router with
 * {@code scheduler_idle: combine}, whose idle duty cycle runs on this thread, and an instant engine that reports the
 * completion from the dispatch callback (the cycle takes it before {@code submit} returns). One call is one whole
 * lifecycle on the caller's thread: the direct arrival, classify (pass-through), enqueue, placement among 8 workers,
 * the callback, the completion's ring message and release. One request at a time: the next is submitted once the
 * last was dispatched (when the scheduler thread held the role, on that thread). {@code -prof gc} shows whether it
 * allocates.
 *
 * <p>The suite runs 8 workers and a class that never queues. {@code -p workers=128} places among 128 ranks, and
 * {@code -p queueThreshold=0.9} gives the class a busy threshold ({@code --router-queue-threshold 0.9}: a rank is
 * busy above 90 % of its {@code max_num_batched_tokens} of booked prefill), so placement tests each rank for it; one
 * request at a time never makes a rank busy.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CombineBench {
    private static final int IDS = 1024;

    /** Worker ranks the router places among. */
    @Param({"8"})
    public int workers;

    /** The class's {@code prefill_busy_threshold_frac}, or {@code none} for a class that never queues. */
    @Param({"none"})
    public String queueThreshold;

    private ModelRouter router;
    private final AdmissionRequest[] requests = new AdmissionRequest[IDS];
    private final InstantEngine engine = new InstantEngine();
    private int next;

    /** Completes each dispatched request from its dispatch callback, as the harness's instant engine does. */
    final class InstantEngine implements AdmissionListener {
        volatile long dispatched;
        long rejections;

        @Override
        public void onDispatched(long lifecycleId, WorkerWithDpRank worker) {
            router.completed(lifecycleId);
            dispatched = lifecycleId;
        }

        @Override
        public void onRejected(long lifecycleId, AdmissionError error) {
            rejections++;
            dispatched = lifecycleId;
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        OptionalDouble threshold = queueThreshold.equals("none") ? OptionalDouble.empty()
            : OptionalDouble.of(Double.parseDouble(queueThreshold));
        router = ModelRouter.start(new RouterContext().model("combine-bench")
            .profile(PolicyProfile.synthetic(threshold, QueuePolicy.FCFS))
            .schedulerIdle(RouterContext.SchedulerIdle.COMBINE));
        for (int w = 0; w < workers; w++) {
            router.workerJoined(WorkerWithDpRank.of(w), 8192, OptionalLong.of(4096));
        }
        for (int i = 0; i < IDS; i++) {
            requests[i] = AdmissionRequest.builder("combine-" + i).inputTokens(512).build();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        router.close();
        if (engine.rejections > 0) {
            throw new IllegalStateException(engine.rejections + " requests were rejected");
        }
    }

    @Benchmark
    public long submitDispatchComplete() {
        AdmissionRequest request = requests[next];
        next = (next + 1) & (IDS - 1);
        long id = router.submit(request, engine);
        // Mostly answered before submit returns; when the scheduler thread held the role, it answers.
        while (engine.dispatched != id) {
            Thread.onSpinWait();
        }
        return id;
    }
}
