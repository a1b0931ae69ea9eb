package dev.sluice.perf.harness;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.AdmissionListener;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.perf.baseline.BaselineController;

/**
 * One in-flight request slot of a generator, reused round-robin: its intended send time and where to report the
 * outcome, with a request id of its own. The instant engine completes the request from the dispatch callback
 * itself. The generator writes {@link #intended} before submitting; the submit hand-off (ring publish or lock) makes
 * it visible to the callback.
 */
final class Pending implements AdmissionListener, BaselineController.Listener {
    /** Completes a dispatched request at once: the "instant engine". */
    interface Engine {
        void complete(long id, WorkerWithDpRank worker);
    }

    private final LatencyProbe probe;
    private final Engine engine;
    /** Unique among requests in flight (both controllers refuse a duplicate id in flight). */
    final String requestId;
    final AdmissionRequest request;
    long intended;

    Pending(LatencyProbe probe, Engine engine, String requestId) {
        this.probe = probe;
        this.engine = engine;
        this.requestId = requestId;
        this.request = AdmissionRequest.builder(requestId).inputTokens(Target.INPUT_TOKENS).build();
    }

    @Override
    public void onDispatched(long lifecycleId, WorkerWithDpRank worker) {
        probe.dispatched(intended, System.nanoTime());
        engine.complete(lifecycleId, worker);
    }

    @Override
    public void onRejected(long lifecycleId, AdmissionError error) {
        probe.rejected(intended);

    }
}
