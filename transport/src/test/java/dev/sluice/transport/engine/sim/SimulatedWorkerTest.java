package dev.sluice.transport.engine.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.kv.BlockHasher;
import dev.sluice.core.kv.KvEvent;
import dev.sluice.core.kv.KvEventSink;
import dev.sluice.transport.engine.EngineRequest;
import dev.sluice.transport.engine.EngineStream;
import dev.sluice.transport.engine.FinishReason;
import dev.sluice.transport.testing.Prompts;
import dev.sluice.transport.testing.RecordingKvSink;
import dev.sluice.transport.testing.RecordingListener;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The simulated worker's timing, KV events and errors, on the virtual clock. */
class SimulatedWorkerTest {
    private static final long LIMIT_NS = 3_600_000_000_000L;

    private final VirtualClockDriver driver = new VirtualClockDriver();
    private final RecordingKvSink sink = new RecordingKvSink();

    @Test
    void shouldDeliverTheFirstTokenAfterPrefillAndOneDecodeStep() {
        SimulatedWorker worker = worker(new SimEngineContext().speedupRatio(1), KvEventSink.NONE);
        RecordingListener listener = new RecordingListener(driver::nanoTime);
        worker.submit(EngineRequest.of("timed", Prompts.range(0, 1024), 2), listener);

        assertTrue(driver.runUntilIdle(LIMIT_NS));

        long ttft = ns(prefillMs(1024) + decodeMs(16.0 / 16384));
        assertEquals(List.of(ttft, ttft + ns(decodeMs(17.0 / 16384))), listener.tokenTimes());
    }

    @Test
    void shouldDivideTimeBySpeedupRatio() {
        SimulatedWorker worker = worker(new SimEngineContext().speedupRatio(10), KvEventSink.NONE);
        RecordingListener listener = new RecordingListener(driver::nanoTime);
        worker.submit(EngineRequest.of("fast", Prompts.range(0, 1024), 1), listener);

        assertTrue(driver.runUntilIdle(LIMIT_NS));

        assertEquals(List.of(ns((prefillMs(1024) + decodeMs(16.0 / 16384)) / 10)), listener.tokenTimes());
    }

    @Test
    void shouldChunkALongPromptWithinTheTokenBudget() {
        SimulatedWorker worker = worker(new SimEngineContext().maxNumBatchedTokens(256), KvEventSink.NONE);
        RecordingListener listener = new RecordingListener(driver::nanoTime);
        worker.submit(EngineRequest.of("long", Prompts.range(0, 1000), 1), listener);

        driver.runUntil(ns(prefillMs(256) * 0.5));
        assertEquals(1000 - 256, worker.load(0).activePrefillTokens(), "the first pass prefills one chunk");
        assertEquals(1, worker.load(0).runningRequests());
        assertTrue(driver.runUntilIdle(LIMIT_NS));

        long expected = ns(prefillMs(256)) * 3 + ns(prefillMs(232) + decodeMs(16.0 / 16384));
        assertEquals(List.of(expected), listener.tokenTimes());
    }

    @Test
    void shouldPublishBlocksWithTheRoutersHashesAndEvictLeavesFirst() {
        SimulatedWorker worker = worker(new SimEngineContext().numGpuBlocks(8).blockSize(64), sink);
        int[] prompt = Prompts.random(new SplittableRandom(1), 130);
        RecordingListener first = new RecordingListener();
        worker.submit(EngineRequest.of("first", prompt, 70), first);
        assertTrue(driver.runUntilIdle(LIMIT_NS));

        int[] all = concat(prompt, first.tokens());
        BlockHasher hasher = new BlockHasher(64);
        long[] locals = hasher.localHashes(all);
        long[] hashes = BlockHasher.sequenceHashes(locals);
        List<KvEvent.Stored> stored = sink.events(KvEvent.Stored.class);
        assertEquals(2, stored.size());
        assertFalse(stored.get(0).hasParent());
        assertArrayEquals(new long[] {hashes[0], hashes[1]}, stored.get(0).sequenceHashes());
        assertArrayEquals(new long[] {locals[0], locals[1]}, stored.get(0).localHashes());
        assertTrue(stored.get(1).hasParent(), "the block completed by generated tokens");
        assertEquals(hashes[1], stored.get(1).parentSequenceHash());
        assertArrayEquals(new long[] {hashes[2]}, stored.get(1).sequenceHashes());
        assertArrayEquals(new long[] {locals[2]}, stored.get(1).localHashes());

        sink.clear();
        worker.submit(EngineRequest.of("again", prompt, 1), new RecordingListener());
        assertTrue(driver.runUntilIdle(LIMIT_NS));
        assertTrue(sink.events().isEmpty(), "cached blocks are reactivated, not stored again");
        assertEquals(0.5 * (128.0 / 130), worker.load(0).prefixCacheHitRate(), 1e-9);
        assertEquals(2 * 130, worker.load(0).prefixCacheQueries(), "each admission looks its prompt up");
        assertEquals(128, worker.load(0).prefixCacheHits(), "the second finds its two full blocks");

        worker.submit(EngineRequest.of("other", Prompts.random(new SplittableRandom(2), 384), 1),
            new RecordingListener());
        assertTrue(driver.runUntilIdle(LIMIT_NS));
        List<KvEvent.Removed> removed = sink.events(KvEvent.Removed.class);
        assertEquals(2, removed.size());
        assertArrayEquals(new long[] {hashes[2]}, removed.get(0).sequenceHashes(), "the leaf goes first");
        assertArrayEquals(new long[] {hashes[1]}, removed.get(1).sequenceHashes());
    }

    @Test
    void shouldCancelAWaitingRequestWithoutTokens() {
        SimulatedWorker worker = worker(new SimEngineContext().maxNumSeqs(1), KvEventSink.NONE);
        RecordingListener running = new RecordingListener();
        RecordingListener waiting = new RecordingListener();
        worker.submit(EngineRequest.of("running", Prompts.range(0, 10), 5), running);
        EngineStream stream = worker.submit(EngineRequest.of("waiting", Prompts.range(0, 10), 5), waiting);
        driver.runUntil(1);
        assertEquals(1, worker.load(0).waitingRequests());
        stream.cancel();
        stream.cancel();

        assertTrue(driver.runUntilIdle(LIMIT_NS));

        assertEquals(FinishReason.CANCELLED, waiting.finishReason());
        assertEquals(0, waiting.completionTokens());
        assertEquals(1, waiting.terminalCalls());
        assertEquals(5, running.tokens().size());
    }

    @Test
    void shouldRejectARankOutOfBounds() {
        SimulatedWorker worker = worker(new SimEngineContext(), KvEventSink.NONE);
        RecordingListener listener = new RecordingListener();
        worker.submit(new EngineRequest("bad-rank", Prompts.range(0, 4), 1, 2), listener);

        assertTrue(driver.runUntilIdle(LIMIT_NS));

        assertEquals("dp_rank 2 is out of bounds for dp_size 1", listener.error());
    }

    @Test
    void shouldRejectARequestThatCanNeverFitTheCache() {
        SimulatedWorker worker = worker(new SimEngineContext().numGpuBlocks(10).blockSize(16), KvEventSink.NONE);
        RecordingListener listener = new RecordingListener();
        worker.submit(EngineRequest.of("huge", Prompts.range(0, 100), 100), listener);
        RecordingListener endless = new RecordingListener();
        worker.submit(EngineRequest.of("endless", Prompts.range(0, 10), Integer.MAX_VALUE), endless);
        RecordingListener next = new RecordingListener();
        worker.submit(EngineRequest.of("small", Prompts.range(0, 10), 3), next);

        assertTrue(driver.runUntilIdle(LIMIT_NS));

        assertEquals("request huge needs 13 KV blocks for 100 prompt tokens and max_tokens 100, more than the "
            + "engine's 9", listener.error());
        assertTrue(endless.error().startsWith("request endless needs 134217729 KV blocks"), endless.error());
        assertEquals(3, next.tokens().size(), "the queue is not blocked");
    }

    private SimulatedWorker worker(SimEngineContext ctx, KvEventSink kvSink) {
        SimulatedWorker worker = new SimulatedWorker(0, ctx, kvSink);
        driver.attach(worker);
        return worker;
    }

    private static double prefillMs(double t) {
        return 4.209989e-07 * t * t + 1.518344e-02 * t + 16.50142;
    }

    private static double decodeMs(double p) {
        return -25.74 * p * p + 54.01 * p + 5.74;
    }

    private static long ns(double ms) {
        return (long) (ms * 1_000_000.0);
    }

    private static int[] concat(int[] prompt, List<Integer> generated) {
        int[] all = new int[prompt.length + generated.size()];
        System.arraycopy(prompt, 0, all, 0, prompt.length);
        for (int i = 0; i < generated.size(); i++) {
            all[prompt.length + i] = generated.get(i);
        }
        return all;
    }
}
