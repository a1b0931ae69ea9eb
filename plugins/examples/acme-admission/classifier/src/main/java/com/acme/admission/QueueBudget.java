package com.acme.admission;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.ErrorClass;
import dev.sluice.core.spi.RequestClassifier;
import org.agrona.concurrent.NanoClock;

/** Limits router-queue waiting to a budget measured from ingress. Runs on the router's scheduler thread. */
final class QueueBudget implements RequestClassifier {
    private final NanoClock clock;
    private final long budgetNs;

    QueueBudget(NanoClock clock, long budgetNs) {
        this.clock = clock;
        this.budgetNs = budgetNs;
    }

    @Override
    public Classification classify(ClassifyRequest request) {
        long deadline = request.ingressAt() + budgetNs;
        if (clock.nanoTime() >= deadline) {
            return Classification.reject(AdmissionError.of(ErrorClass.CAPACITY_EXHAUSTED)
                .diagnostic("admission wait budget exhausted")
                .publicMessage("Admission wait budget exhausted; retry later"));
        }
        request.setDueAt(deadline);
        return Classification.admit(request);
    }
}
