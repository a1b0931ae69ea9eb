package dev.sluice.transport.replay;

import dev.sluice.core.api.SessionContext;
import dev.sluice.core.journal.JournalRecord;
import dev.sluice.core.router.AdmissionRequest;

/** Rebuilds submitted requests from their recorded arrival fields. Stateless. */
final class Arrivals {
    private Arrivals() {
    }

    static AdmissionRequest request(JournalRecord.Request r) {
        AdmissionRequest.Builder builder = AdmissionRequest.builder(r.requestId()).inputTokens(r.inputTokens())
            .policyClass(r.policyClass()).tenant(r.tenant()).pinnedWorker(r.pinnedWorker())
            .strictPriority(r.strictPriority()).priorityJump(r.priorityJump());
        if (r.sessionId() != null) {
            builder.sessionContext(new SessionContext(r.sessionId(), r.parentSessionId(), r.finality(),
                r.inputTrigger()));
        }
        return builder.build();
    }
}
