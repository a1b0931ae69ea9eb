package dev.sluice.plugins.queuebudget;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.ErrorClass;
import dev.sluice.core.spi.RequestClassifier;
import org.agrona.concurrent.NanoClock;

/**
 * Limits router-queue waiting to a budget measured from ingress: a request whose budget is already spent is
 * rejected with {@link ErrorClass#CAPACITY_EXHAUSTED} (the overload status, 529 unless
 * {@code DYN_HTTP_OVERLOAD_STATUS_CODE} says otherwise); every other request is admitted with
 * {@code due_at = ingress + budget}, so the router sheds it if it is still queued then.
 *
 * <p>Stateless apart from its settings; runs on the scheduler thread like every classifier.
 */
public final class QueueBudgetClassifier implements RequestClassifier {
    static final AdmissionError EXHAUSTED = AdmissionError.of(ErrorClass.CAPACITY_EXHAUSTED)
        .reason("queue_budget_exhausted")
        .diagnostic("admission wait budget exhausted")
        .publicMessage("Admission wait budget exhausted; retry later");

    private final NanoClock clock;
    private final long budgetNs;

    /**
     * @param clock    the router's clock ({@code RequestClassifierContext.clock()}).
     * @param budgetNs the wait budget from ingress, in nanoseconds.
     */
    public QueueBudgetClassifier(NanoClock clock, long budgetNs) {
        this.clock = clock;
        this.budgetNs = budgetNs;
    }

    @Override
    public Classification classify(ClassifyRequest request) {
        long deadline = request.ingressAt() + budgetNs;
        if (clock.nanoTime() >= deadline) {
            return Classification.reject(EXHAUSTED);
        }
        request.setDueAt(deadline);
        return Classification.admit(request);
    }
}
