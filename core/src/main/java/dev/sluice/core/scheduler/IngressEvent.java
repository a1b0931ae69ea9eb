package dev.sluice.core.scheduler;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.AdmissionListener;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.kv.KvEvent;
import java.util.OptionalLong;

/**
 * A preallocated slot of the ingress ring: one message to the scheduler. Producers fill it between claim and
 * publish; the scheduler reads it and clears its references.
 */
public final class IngressEvent {
    /** What the message asks for. */
    public enum Type {
        ARRIVE,
        RESPONDING,
        COMPLETED,
        ABORTED,
        CONTEXT_TOKENS,
        OUTPUT_TOKENS,
        RETRY,
        WORKER_JOIN,
        WORKER_LEAVE,
        KV_EVENT,
        DRAIN
    }

    public Type type;
    public long lifecycleId;
    public long time;
    public long value;
    public AdmissionRequest request;
    public AdmissionListener listener;
    public Throwable cause;
    public WorkerWithDpRank worker;
    public OptionalLong totalKvBlocks;
    public KvEvent kvEvent;

    void clear() {
        kvEvent = null;
        request = null;
        listener = null;
        cause = null;
        worker = null;
        totalKvBlocks = null;
    }
}
