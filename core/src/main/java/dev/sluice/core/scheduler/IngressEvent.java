package dev.sluice.core.scheduler;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.AdmissionListener;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.host.RemoteBooking;
import dev.sluice.core.host.WorkerLoad;
import dev.sluice.core.kv.KvEvent;

/**
 * A preallocated slot of the ingress ring: one message to the scheduler. {@link IngressProxy} fills it between claim
 * and publish with plain stores only (nothing that can throw); the scheduler reads it, then {@link #clear()}s its
 * references so a slot keeps nothing alive.
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
        KV_EVENT,
        WORKER_LOAD,
        DRAIN,
        RELOAD,
        REMOTE_BOOKED,
        REMOTE_PREFILL_DONE,
        REMOTE_RELEASED,
        REMOTE_GONE
    }

    Type type;
    long lifecycleId;
    /** ARRIVE: the ingress time; CONTEXT_TOKENS, OUTPUT_TOKENS: the tokens; WORKER_JOIN: max_num_batched_tokens. */
    long value;
    /** WORKER_JOIN: the total KV blocks, or -1 when the worker published none. */
    long value2;
    AdmissionRequest request;
    AdmissionListener listener;
    /**
     * ABORTED: the cause (may be null); WORKER_JOIN, WORKER_LEAVE: the worker; KV_EVENT: the event; WORKER_LOAD: the
     * engine's report; RELOAD: the {@link PolicyReload}; REMOTE_BOOKED: the {@link RemoteBooking}; REMOTE_PREFILL_DONE,
     * REMOTE_RELEASED, REMOTE_GONE: the replica (its key in {@link #lifecycleId}).
     */
    Object subject;

    void arrival(long id, long ingressAt, AdmissionRequest arriving, AdmissionListener outcome) {
        type = Type.ARRIVE;
        lifecycleId = id;
        value = ingressAt;
        request = arriving;
        listener = outcome;
    }

    void message(Type messageType, long id, long first, long second, Object about) {
        type = messageType;
        lifecycleId = id;
        value = first;
        value2 = second;
        subject = about;
    }

    Throwable cause() {
        return (Throwable) subject;
    }

    WorkerWithDpRank worker() {
        return (WorkerWithDpRank) subject;
    }

    KvEvent kvEvent() {
        return (KvEvent) subject;
    }

    WorkerLoad workerLoad() {
        return (WorkerLoad) subject;
    }

    RemoteBooking remoteBooking() {
        return (RemoteBooking) subject;
    }

    String replica() {
        return (String) subject;
    }

    PolicyReload policyReload() {
        return (PolicyReload) subject;
    }

    void clear() {
        request = null;
        listener = null;
        subject = null;
    }
}
