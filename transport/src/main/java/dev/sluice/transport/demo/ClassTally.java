package dev.sluice.transport.demo;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.audit.RequestFigures;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.PolicyClassSpec;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.host.RequestView;
import dev.sluice.core.host.SchedulerObserver;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The router's side of each demo request, by request id: the policy class it was queued in or turned away from,
 * whether the classifier deferred or parked it, when it arrived, was first enqueued, dispatched and responded
 * (scheduler time), and every terminal event (there must be exactly one); {@link #figures} turns them into the
 * {@link RequestFigures} that {@code journal stats} computes from the journal of the same run. A scheduler
 * observer: written on the scheduler thread only; it allocates per request, acceptable for a demo and the reason no
 * server uses it. Read {@link #trace} and {@link #traces} only after the
 * router has stopped (the frontend closed, or the simulation ended).
 */
final class ClassTally implements SchedulerObserver {
    /** One request's decisions. Mutated on the scheduler thread. */
    static final class Trace {
        int classIndex = -1;
        long arrivedNs;
        long enqueuedNs = -1;
        long dispatchedNs = -1;
        long respondingNs = -1;
        boolean enqueued;
        boolean deferred;
        boolean parked;
        int terminals;
        ClientTally.Kind terminal;
        String reason = "";
        int status;
    }

    private final PolicyProfile profile;
    private final int overloadStatus;
    private final Map<String, Trace> traces = new ConcurrentHashMap<>();
    /** Arrivals refused before they got a lifecycle (live-request limit, a fail-closed journal). */
    final AtomicLong refused = new AtomicLong();

    ClassTally(PolicyProfile profile, int overloadStatus) {
        this.profile = profile;
        this.overloadStatus = overloadStatus;
    }

    /** The trace of {@code requestId}, or {@code null} when the router never saw it. */
    Trace trace(String requestId) {
        return traces.get(requestId);
    }

    /**
     * The demo's id of a request: the client's {@code x-request-id} through the frontend (which keys the router on
     * an id of its own), the router's id when submitted in process.
     */
    private static String key(RequestView request) {
        return key(request.clientRequestId(), request.requestId());
    }

    private static String key(String clientId, String requestId) {
        return clientId != null ? clientId : requestId;
    }

    int size() {
        return traces.size();
    }

    /** Every request's trace, in no particular order. */
    Collection<Trace> traces() {
        return traces.values();
    }

    @Override
    public void onArrived(long nowNs, RequestView request) {
        Trace trace = new Trace();
        trace.arrivedNs = request.ingressAt();
        traces.put(key(request), trace);
    }

    @Override
    public void onRefused(long nowNs, long lifecycleId, AdmissionRequest request, AdmissionError error) {
        refused.incrementAndGet();
        Trace trace = new Trace();
        trace.arrivedNs = nowNs;
        traces.put(key(request.clientRequestId(), request.requestId()), trace);
        end(trace, ClientTally.Kind.REJECTED, error);
    }

    @Override
    public void onClassified(long nowNs, RequestView request, Classification.Kind decision) {
        Trace trace = traces.get(key(request));
        if (trace != null && decision == Classification.Kind.DEFER) {
            trace.deferred = true;
        } else if (trace != null && decision == Classification.Kind.PARK) {
            trace.parked = true;
        }
    }

    @Override
    public void onEnqueued(long nowNs, RequestView request, PolicyClassSpec policyClass) {
        Trace trace = traces.get(key(request));
        if (trace != null) {
            trace.classIndex = request.classIndex();
            trace.enqueued = true;
            trace.enqueuedNs = trace.enqueuedNs < 0 ? nowNs : trace.enqueuedNs;
        }
    }

    @Override
    public void onDispatched(long nowNs, RequestView request, WorkerWithDpRank worker) {
        Trace trace = traces.get(key(request));
        if (trace != null && trace.dispatchedNs < 0) {
            trace.dispatchedNs = nowNs;
        }
    }

    @Override
    public void onResponding(long nowNs, RequestView request) {
        Trace trace = traces.get(key(request));
        if (trace != null && trace.respondingNs < 0) {
            trace.respondingNs = nowNs;
        }
    }

    @Override
    public void onRejected(long nowNs, RequestView request, AdmissionError error) {
        Trace trace = traces.get(key(request));
        if (trace != null && request.classIndex() >= 0) {
            // Turned away by its class's queue (a limit, a deadline): the class it counts in, as in the journal.
            trace.classIndex = request.classIndex();
        }
        end(trace, ClientTally.Kind.REJECTED, error);
    }

    @Override
    public void onCompleted(long nowNs, RequestView request, long contextTokens) {
        end(traces.get(key(request)), ClientTally.Kind.COMPLETED, null);
    }

    @Override
    public void onAborted(long nowNs, RequestView request, Throwable cause) {
        end(traces.get(key(request)), ClientTally.Kind.LEFT, null);
    }

    /** The class of a trace as {@link RequestFigures} defines it. */
    String className(Trace trace) {
        return trace.classIndex < 0 ? RequestFigures.NO_CLASS : profile.classes().get(trace.classIndex).name();
    }

    /** A trace's figures, as {@link RequestFigures} defines them (and {@code Lifecycle.facts} reads them back). */
    RequestFigures.Facts facts(Trace trace) {
        RequestFigures.Outcome outcome = trace.terminal == null ? RequestFigures.Outcome.OPEN
            : switch (trace.terminal) {
                case COMPLETED -> RequestFigures.Outcome.COMPLETED;
                case REJECTED -> RequestFigures.Outcome.REJECTED;
                case LEFT, FAILED -> RequestFigures.Outcome.ABORTED;
            };
        boolean rejected = outcome == RequestFigures.Outcome.REJECTED;
        return new RequestFigures.Facts(className(trace), outcome, trace.enqueued, trace.dispatchedNs >= 0,
            trace.deferred, trace.parked, trace.enqueuedNs >= 0 && trace.dispatchedNs >= 0
            ? trace.dispatchedNs - trace.enqueuedNs : -1, trace.respondingNs >= 0 ? trace.respondingNs
            - trace.arrivedNs : -1, rejected ? trace.reason : null, rejected ? trace.status : 0);
    }

    /** Every request's figures, the profile's classes first in its order; after the router has stopped. */
    RequestFigures figures() {
        RequestFigures figures = new RequestFigures();
        profile.classes().forEach(spec -> figures.declare(spec.name()));
        traces.values().forEach(trace -> figures.add(facts(trace)));
        return figures;
    }

    private void end(Trace trace, ClientTally.Kind kind, AdmissionError error) {
        if (trace == null) {
            return;
        }
        trace.terminals++;
        trace.terminal = kind;
        if (error != null) {
            trace.reason = error.reason();
            trace.status = error.httpStatus(overloadStatus);
        }
    }
}
