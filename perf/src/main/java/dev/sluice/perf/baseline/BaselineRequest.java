package dev.sluice.perf.baseline;

import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.RequestProgress;
import dev.sluice.core.api.SessionContext;
import dev.sluice.core.api.Wakeup;
import dev.sluice.core.api.WorkerWithDpRank;

/**
 * The baseline's request as the (shared) {@link dev.sluice.core.spi.RequestClassifier} sees it: plain mutable fields,
 * guarded by the baseline's router-wide lock. Parking is not supported by the conventional design ({@link #wakeup()}
 * throws); deferrals block a platform thread instead.
 */
final class BaselineRequest implements ClassifyRequest {
    private static final SessionContext NO_SESSION = SessionContext.of("baseline");
    private static final RequestProgress PROGRESS = RequestProgress.create(0).progress();

    final long id;
    final long seq;
    final BaselineController.Listener listener;
    private final String requestId;
    private final long inputTokens;
    private final long ingressAt;
    private String policyClass = "default";
    private long dueAt = NO_DEADLINE;
    private long costTokens;
    private WorkerWithDpRank target;

    BaselineRequest(long id, long seq, String requestId, long inputTokens, long ingressAt,
                    BaselineController.Listener listener) {
        this.id = id;
        this.seq = seq;
        this.requestId = requestId;
        this.inputTokens = inputTokens;
        this.ingressAt = ingressAt;
        this.costTokens = Math.max(1, inputTokens);
        this.listener = listener;
    }

    @Override
    public String requestId() {
        return requestId;
    }

    @Override
    public SessionContext sessionContext() {
        return NO_SESSION;
    }

    @Override
    public String tenant() {
        return null;
    }

    @Override
    public long inputTokens() {
        return inputTokens;
    }

    @Override
    public long ingressAt() {
        return ingressAt;
    }

    @Override
    public RequestProgress progress() {
        return PROGRESS;
    }

    @Override
    public WorkerWithDpRank pinnedWorker() {
        return null;
    }

    @Override
    public String policyClass() {
        return policyClass;
    }

    @Override
    public long dueAt() {
        return dueAt;
    }

    @Override
    public long schedulingCostTokens() {
        return costTokens;
    }

    @Override
    public WorkerWithDpRank workerSelectionTarget() {
        return target;
    }

    @Override
    public void setPolicyClass(String name) {
        this.policyClass = name;
    }

    @Override
    public void setDueAt(long dueAtNanos) {
        this.dueAt = dueAtNanos;
    }

    @Override
    public void setSchedulingCostTokens(long tokens) {
        this.costTokens = Math.max(1, tokens);
    }

    @Override
    public void setWorkerSelectionTarget(WorkerWithDpRank worker) {
        this.target = worker;
    }

    @Override
    public void clearWorkerSelectionTarget() {
        this.target = null;
    }

    @Override
    public Wakeup wakeup() {
        throw new UnsupportedOperationException("the conventional baseline has no parking; defer instead");
    }
}
