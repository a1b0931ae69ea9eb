package dev.sluice.transport.engine.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.kv.KvEventSink;
import dev.sluice.transport.engine.EngineRequest;
import dev.sluice.transport.engine.FinishReason;
import dev.sluice.transport.testing.Prompts;
import dev.sluice.transport.testing.RecordingKvSink;
import dev.sluice.transport.testing.RecordingListener;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The real-time mode's hand-offs: submissions from many threads, callbacks from each worker's runner thread. */
class RealTimeFleetTest {
    @Test
    void shouldServeRequestsSubmittedFromManyThreads() throws Exception {
        SimEngineContext ctx = new SimEngineContext().numGpuBlocks(256).blockSize(16).speedupRatio(100);
        RecordingKvSink sink = new RecordingKvSink();
        List<RecordingListener> listeners = new ArrayList<>();
        try (SimulatedFleet fleet = SimulatedFleet.realTime(ctx, 2, sink);
             ExecutorService submitters = Executors.newFixedThreadPool(4)) {
            List<Future<List<RecordingListener>>> batches = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                batches.add(submitters.submit(() -> {
                    List<RecordingListener> mine = new ArrayList<>();
                    for (int i = 0; i < 25; i++) {
                        RecordingListener listener = new RecordingListener();
                        mine.add(listener);
                        fleet.worker(i % 2).submit(EngineRequest.of("t" + thread + "-" + i,
                            Prompts.range(i * 7, 40), 20), listener);
                    }
                    return mine;
                }));
            }
            for (Future<List<RecordingListener>> batch : batches) {
                listeners.addAll(batch.get());
            }
            for (RecordingListener listener : listeners) {
                assertTrue(listener.await(20), "request finished");
                assertEquals(FinishReason.LENGTH, listener.finishReason());
                assertEquals(20, listener.tokens().size());
            }
            assertEquals(0, fleet.worker(0).load(0).activeDecodeBlocks());
        }
        assertEquals(100, listeners.size());
        assertFalse(sink.events().isEmpty(), "prefix caching publishes KV events");
    }

    @Test
    void shouldFailRunningRequestsWhenClosed() throws Exception {
        RecordingListener listener = new RecordingListener();
        SimulatedFleet fleet = SimulatedFleet.realTime(new SimEngineContext().speedupRatio(0.001), 1,
            KvEventSink.NONE);
        fleet.worker(0).submit(EngineRequest.of("slow", Prompts.range(0, 100), 1000), listener);
        fleet.close();
        fleet.close();

        assertTrue(listener.await(5));
        assertEquals("simulated worker 0 stopped", listener.error());
        assertEquals(1, listener.terminalCalls());
    }
}
