package dev.sluice.transport.engine.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.kv.KvEventSink;
import dev.sluice.transport.engine.EngineLoad;
import dev.sluice.transport.engine.EngineRequest;
import dev.sluice.transport.engine.FinishReason;
import dev.sluice.transport.testing.Prompts;
import dev.sluice.transport.testing.RecordingListener;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The vLLM v1 scheduler mode on the virtual clock: admission, decode-time allocation and preemption. */
class VllmEngineCoreTest {
    private static final long HOUR_NS = 3_600_000_000_000L;

    private final VirtualClockDriver driver = new VirtualClockDriver();

    @ParameterizedTest(name = "prefix caching {0}, chunked prefill {1}, cost {2}")
    @CsvSource({"true,true,ATTENTION", "true,false,MOCKER", "false,true,MOCKER", "false,false,ATTENTION"})
    void shouldGenerateEveryTokenAndEndIdleUnderHeavyPreemption(boolean prefixCaching, boolean chunkedPrefill,
                                                                CostModel cost) {
        SimulatedWorker worker = worker(vllm(500, 64).enablePrefixCaching(prefixCaching)
            .enableChunkedPrefill(chunkedPrefill).costModel(cost));
        SplittableRandom random = new SplittableRandom(7);
        int[] shared = Prompts.random(random, 500);
        List<RecordingListener> listeners = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            int[] prompt = Prompts.random(random, 1000);
            System.arraycopy(shared, 0, prompt, 0, 500);
            RecordingListener listener = new RecordingListener();
            listeners.add(listener);
            worker.submit(EngineRequest.of("r" + i, prompt, 200), listener);
        }

        assertTrue(driver.runUntilIdle(HOUR_NS));

        for (RecordingListener listener : listeners) {
            assertEquals(FinishReason.LENGTH, listener.finishReason());
            assertEquals(200, listener.tokens().size());
            assertEquals(1, listener.terminalCalls());
        }
        EngineLoad load = worker.load(0);
        assertTrue(load.isIdle(), load::toString);
        assertEquals(0, worker.rank(0).kv().activeBlocks());
        assertTrue(load.preemptions() > 0, "decode growth of 200 x 19 blocks on 500 must preempt: " + load);
    }

    @Test
    void shouldPreemptTheNewestRequestWhenDecodeGrowthExhaustsTheBlocks() {
        // 10 blocks of 4 tokens: two 16-token prompts fit (4 blocks each), decode grows each by a block every 4
        // tokens, so the cache runs out while both decode.
        SimulatedWorker worker = worker(vllm(10, 4));
        RecordingListener older = new RecordingListener(driver::nanoTime);
        RecordingListener newer = new RecordingListener(driver::nanoTime);
        worker.submit(EngineRequest.of("older", Prompts.range(0, 16), 20), older);
        driver.at(1, () -> worker.submit(EngineRequest.of("newer", Prompts.range(100, 16), 20), newer));

        assertTrue(driver.runUntilIdle(HOUR_NS));

        assertEquals(20, older.tokens().size());
        assertEquals(20, newer.tokens().size());
        PrefillCounters prefill = worker.prefillCounters(0);
        assertTrue(prefill.preemptions() >= 1, prefill::toString);
        long olderDone = older.tokenTimes().getLast();
        long newerStalled = newer.tokenTimes().stream().filter(t -> t <= olderDone).count();
        assertTrue(newerStalled < 20, "the newer request waited while the older one ran on");
        assertTrue(isSteady(older.tokenTimes()), "the older request was never preempted: " + older.tokenTimes());
        // The newer one resumed by re-prefilling prompt plus output, once per preemption.
        assertEquals(2 + prefill.preemptions(), prefill.prefills());
        assertEquals(0, worker.rank(0).kv().activeBlocks());
    }

    @Test
    void shouldAdmitAMostlyCachedPromptThatWouldNotFitUncounted() {
        // 20 blocks of 4. A 60-token prompt (15 blocks) runs and leaves its blocks cached; a 4-block request then
        // holds the rest. The prompt plus 4 tokens needs 16 blocks, but only 1 is new and 15 are cache hits.
        SimulatedWorker worker = worker(vllm(20, 4));
        RecordingListener first = new RecordingListener();
        worker.submit(EngineRequest.of("first", Prompts.range(0, 60), 1), first);
        assertTrue(driver.runUntilIdle(HOUR_NS));
        RecordingListener holder = new RecordingListener(driver::nanoTime);
        RecordingListener cached = new RecordingListener(driver::nanoTime);
        worker.submit(EngineRequest.of("holder", Prompts.range(500, 12), 4), holder);
        int[] longer = Prompts.range(0, 64);
        driver.at(driver.nanoTime() + 1, () -> worker.submit(EngineRequest.of("cached", longer, 1), cached));

        assertTrue(driver.runUntilIdle(HOUR_NS));

        assertEquals(1, cached.tokens().size());
        assertEquals(0, worker.prefillCounters(0).preemptions());
        assertTrue(cached.tokenTimes().getFirst() < holder.tokenTimes().getLast(),
            "admitted beside the holder, not after it");
        assertEquals(60 + 12 + 4, worker.prefillCounters(0).computedTokens(), "only the uncached tokens computed");
    }

    @Test
    void shouldChargeAttentionOverTheCachedContext() {
        assertEquals(PerfModel.prefillMs(2000), PerfModel.attentionChunkMs(2000, 0) + PerfModel.prefillPassMs(),
            1e-9);
        assertTrue(PerfModel.attentionChunkMs(2000, 100_000) > 5 * PerfModel.attentionChunkMs(2000, 0));
    }

    /** No gap between consecutive tokens more than 3x the median gap. */
    private static boolean isSteady(List<Long> times) {
        List<Long> gaps = new ArrayList<>();
        for (int i = 1; i < times.size(); i++) {
            gaps.add(times.get(i) - times.get(i - 1));
        }
        List<Long> sorted = new ArrayList<>(gaps);
        sorted.sort(null);
        long median = sorted.get(sorted.size() / 2);
        return gaps.stream().allMatch(g -> g <= 3 * median);
    }

    private static SimEngineContext vllm(long blocks, int blockSize) {
        return new SimEngineContext().numGpuBlocks(blocks).blockSize(blockSize).speedupRatio(10)
            .scheduler(SchedulerMode.VLLM_V1);
    }

    private SimulatedWorker worker(SimEngineContext ctx) {
        SimulatedWorker worker = new SimulatedWorker(0, ctx, KvEventSink.NONE);
        driver.attach(worker);
        return worker;
    }
}
