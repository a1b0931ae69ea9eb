package dev.sluice.transport.engine.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.kv.KvEvent;
import dev.sluice.core.kv.KvEventSink;
import dev.sluice.transport.engine.EngineListener;
import dev.sluice.transport.engine.EngineLoad;
import dev.sluice.transport.engine.EngineRequest;
import dev.sluice.transport.engine.EngineStream;
import dev.sluice.transport.engine.FinishReason;
import dev.sluice.transport.testing.Prompts;
import dev.sluice.transport.testing.RecordingKvSink;
import dev.sluice.transport.testing.RecordingListener;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Ports of the mocker's scheduler.rs and engine.rs sanity tests, on the virtual clock: where the mocker waits for
 * seconds of silence, these run the driver until idle.
 */
class MockerSanityTest {
    private static final long HOUR_NS = 3_600_000_000_000L;

    private final VirtualClockDriver driver = new VirtualClockDriver();

    @ParameterizedTest(name = "shared prefix {0}, prefix caching {1}, chunked prefill {2}")
    @CsvSource({"true,true,true", "true,true,false", "true,false,true", "true,false,false",
        "false,true,true", "false,true,false", "false,false,true", "false,false,false"})
    void shouldGenerateEveryTokenAndEndIdleUnderHeavyPreemption(boolean sharedPrefix, boolean prefixCaching,
                                                                boolean chunkedPrefill) {
        SimEngineContext ctx = new SimEngineContext().numGpuBlocks(500).blockSize(64).speedupRatio(10)
            .enablePrefixCaching(prefixCaching).enableChunkedPrefill(chunkedPrefill);
        RecordingKvSink sink = new RecordingKvSink();
        SimulatedWorker worker = worker(ctx, sink);
        SplittableRandom random = new SplittableRandom(7);
        int[] shared = Prompts.random(random, 500);
        List<RecordingListener> listeners = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            int[] prompt = Prompts.random(random, 1000);
            if (sharedPrefix) {
                System.arraycopy(shared, 0, prompt, 0, 500);
            }
            RecordingListener listener = new RecordingListener();
            listeners.add(listener);
            worker.submit(EngineRequest.of("r" + i, prompt, 100), listener);
        }

        assertTrue(driver.runUntilIdle(HOUR_NS));

        int tokens = 0;
        for (RecordingListener listener : listeners) {
            assertEquals(FinishReason.LENGTH, listener.finishReason());
            assertEquals(100, listener.tokens().size());
            assertEquals(1, listener.terminalCalls());
            tokens += listener.tokens().size();
        }
        assertEquals(20_000, tokens);
        EngineLoad load = worker.load(0);
        assertTrue(load.isIdle(), load::toString);
        assertEquals(0.0, load.kvUsage());
        assertTrue(load.preemptions() > 0, "200 x 18 blocks on 500 must preempt: " + load);
        assertEquals(prefixCaching, !sink.events().isEmpty(), "KV events only with prefix caching");
    }

    @Test
    void shouldHitThePrefixCacheWithIdenticalRequests() {
        SimEngineContext ctx = new SimEngineContext().numGpuBlocks(100).blockSize(64).speedupRatio(10);
        SimulatedWorker worker = worker(ctx, KvEventSink.NONE);
        List<RecordingListener> listeners = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            RecordingListener listener = new RecordingListener();
            listeners.add(listener);
            String id = "same-" + i;
            driver.at(i * 100_000_000L, () -> worker.submit(EngineRequest.of(id, Prompts.range(0, 65), 10), listener));
        }

        assertTrue(driver.runUntilIdle(HOUR_NS));

        for (RecordingListener listener : listeners) {
            assertEquals(10, listener.tokens().size());
        }
        EngineLoad load = worker.load(0);
        assertTrue(load.isIdle(), load::toString);
        assertTrue(load.prefixCacheHitRate() > 0.8, "hit rate " + load.prefixCacheHitRate());
    }

    @Test
    void shouldFreeBlocksWhenTheReceiverGoesAway() {
        SimEngineContext ctx = new SimEngineContext().numGpuBlocks(10).blockSize(64).speedupRatio(100);
        SimulatedWorker worker = worker(ctx, KvEventSink.NONE);
        RecordingListener listener = new RecordingListener();
        EngineStream stream = worker.submit(EngineRequest.of("long", Prompts.range(0, 256), 200), listener);
        listener.cancelAfter(129, stream);

        assertTrue(driver.runUntilIdle(HOUR_NS));

        assertEquals(FinishReason.CANCELLED, listener.finishReason());
        assertEquals(129, listener.tokens().size());
        assertEquals(129, listener.completionTokens());
        assertTrue(worker.load(0).isIdle(), worker.load(0)::toString);
        assertEquals(0, worker.rank(0).kv().activeBlocks());
    }

    @Test
    void shouldFreeBlocksWhenTheListenerThrows() {
        SimulatedWorker worker = worker(new SimEngineContext().numGpuBlocks(10).speedupRatio(100), KvEventSink.NONE);
        RecordingListener after = new RecordingListener();
        worker.submit(EngineRequest.of("gone", Prompts.range(0, 100), 50), new EngineListener() {
            @Override
            public void onToken(int tokenId) {
                throw new IllegalStateException("client gone");
            }

            @Override
            public void onFinished(FinishReason reason, long promptTokens, long completionTokens) {
                throw new AssertionError("a listener that threw gets no further calls");
            }

            @Override
            public void onError(String message) {
                throw new AssertionError("a listener that threw gets no further calls");
            }
        });
        driver.after(1_000_000_000L, () -> worker.submit(EngineRequest.of("next", Prompts.range(0, 100), 5), after));

        assertTrue(driver.runUntilIdle(HOUR_NS));

        assertEquals(5, after.tokens().size());
        assertTrue(worker.load(0).isIdle(), worker.load(0)::toString);
    }

    @Test
    void shouldServeEachDataParallelRankWithItsTokenLimit() {
        SimEngineContext ctx = new SimEngineContext().dpSize(2).speedupRatio(10);
        SimulatedFleet fleet = SimulatedFleet.onVirtualClock(ctx, 1, KvEventSink.NONE, driver);
        SimulatedWorker worker = fleet.worker(0);
        List<RecordingListener> listeners = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            RecordingListener listener = new RecordingListener();
            listeners.add(listener);
            worker.submit(new EngineRequest("dp" + i, Prompts.range(i * 4, 4), 20, i % 2), listener);
        }

        assertTrue(driver.runUntilIdle(HOUR_NS));

        for (RecordingListener listener : listeners) {
            assertEquals(20, listener.tokens().size());
            assertEquals(FinishReason.LENGTH, listener.finishReason());
        }
        assertTrue(worker.load(0).isIdle());
        assertTrue(worker.load(1).isIdle());
        fleet.close();
    }

    private SimulatedWorker worker(SimEngineContext ctx, KvEventSink sink) {
        SimulatedWorker worker = new SimulatedWorker(0, ctx, sink);
        driver.attach(worker);
        return worker;
    }

    static long storedBlocks(List<KvEvent> events) {
        long blocks = 0;
        for (KvEvent event : events) {
            if (event instanceof KvEvent.Stored stored) {
                blocks += stored.sequenceHashes().length;
            }
        }
        return blocks;
    }
}
