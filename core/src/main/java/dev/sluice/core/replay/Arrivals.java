package dev.sluice.core.replay;

import dev.sluice.core.api.SessionContext;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.journal.JournalRecord;

/**
 * Rebuilds submitted requests from their recorded arrival fields: for the verifying replay, and for a what-if
 * replay that plays the recorded arrivals on a simulated fleet. Stateless.
 */
public final class Arrivals {
    private Arrivals() {
    }

    /** The recorded arrival, with its prompt's block hashes so that the replayed router matches caches too. */
    public static AdmissionRequest request(JournalRecord.Arrived arrived) {
        return builder(arrived.request()).promptBlockHashes(arrived.promptBlockHashes())
            .inputTokens(arrived.request().inputTokens()).build();
    }

    /** The recorded request's fields (label, class, tenant, session, pins, priority), without its prompt's hashes. */
    public static AdmissionRequest request(JournalRecord.Request r) {
        return builder(r).build();
    }

    /** A builder with the recorded request's fields, to give it a prompt of the caller's. */
    public static AdmissionRequest.Builder builder(JournalRecord.Request r) {
        AdmissionRequest.Builder builder = AdmissionRequest.builder(r.requestId()).clientRequestId(r.clientRequestId())
            .inputTokens(r.inputTokens())
            .policyClass(r.policyClass()).tenant(r.tenant()).pinnedWorker(r.pinnedWorker())
            .strictPriority(r.strictPriority()).priorityJump(r.priorityJump());
        if (r.sessionId() != null) {
            builder.sessionContext(new SessionContext(r.sessionId(), r.parentSessionId(), r.finality(),
                r.inputTrigger()));
        }
        return builder;
    }
}
