package dev.sluice.core.router;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.kv.KvEvent;
import java.util.OptionalLong;

/**
 * A preallocated slot of the ingress ring: one message to the scheduler. Producers fill it between claim and
 * publish; the scheduler reads it and clears its references.
 */
final class IngressEvent {
    /** What the message asks for. */
    enum Type {
        ARRIVE,
        RESPONDING,
        COMPLETED,
        ABORTED,
        CONTEXT_TOKENS,
        OUTPUT_TOKENS,
        RETRY,
        WORKER_JOIN,
        WORKER_LEAVE,
        KV_EVENT
    }

    Type type;
    long lifecycleId;
    long time;
    long value;
    AdmissionRequest request;
    AdmissionListener listener;
    Throwable cause;
    WorkerWithDpRank worker;
    OptionalLong totalKvBlocks;
    KvEvent kvEvent;

    void clear() {
        kvEvent = null;
        request = null;
        listener = null;
        cause = null;
        worker = null;
        totalKvBlocks = null;
    }
}
