package dev.sluice.perf.admission;

import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.kv.BlockHasher;
import dev.sluice.core.kv.KvEvent;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.spi.RequestClassifier;
import java.util.Arrays;
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
 * {@link AdmissionBench}'s lifecycle with the work a KV-aware deployment adds: a classifier that is not pass-through
 * (so the scheduler takes the cache estimate it sees), a prompt of {@code promptTokens} tokens, and half of that
 * prompt cached on one of the workers, so every estimate and every dispatch pick walks the KV index.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class KvAdmissionBench {
    private static final int BLOCK_SIZE = 16;

    @Param({"8"})
    int workers;

    @Param({"4096"})
    int promptTokens;

    private ModelRouter router;
    private AdmissionRequest request;
    private final AdmissionBench.Outcome outcome = new AdmissionBench.Outcome();

    /** Admits every request as it is, synchronously; only being a real classifier matters here. */
    static final class AdmitAll implements RequestClassifier {
        @Override
        public Classification classify(ClassifyRequest classifyRequest) {
            return Classification.admit(classifyRequest);
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        AdmitAll classifier = new AdmitAll();
        router = ModelRouter.manual(new RouterContext().blockSize(BLOCK_SIZE).classifierFactory(c -> classifier));
        for (int w = 0; w < workers; w++) {
            router.workerJoined(WorkerWithDpRank.of(w), 1 << 20, OptionalLong.of(1 << 16));
        }
        int[] tokens = new int[promptTokens];
        for (int i = 0; i < tokens.length; i++) {
            tokens[i] = (i * 7919) % 50_000;
        }
        BlockHasher hasher = new BlockHasher(BLOCK_SIZE);
        request = AdmissionRequest.builder("bench-request").promptTokens(tokens, hasher).build();
        long[] local = hasher.localHashes(tokens);
        long[] cachedLocal = Arrays.copyOf(local, local.length / 2);
        router.kvEvent(new KvEvent.Stored(WorkerWithDpRank.of(0), 0, false, 0L,
            BlockHasher.sequenceHashes(cachedLocal), cachedLocal));
        router.doWork();
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
