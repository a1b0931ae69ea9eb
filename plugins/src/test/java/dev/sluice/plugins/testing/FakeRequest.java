package dev.sluice.plugins.testing;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.RequestProgress;
import dev.sluice.core.api.SessionContext;
import dev.sluice.core.api.Wakeup;
import dev.sluice.core.api.WorkerWithDpRank;

/**
 * A {@link ClassifyRequest} a test builds by hand, with a wake-up that records the decision and can be ended (the
 * client left) so that later wake-ups are refused, as the router's are. Single-threaded.
 */
public final class FakeRequest implements ClassifyRequest {
    private final String requestId;
    private final SessionContext session;
    private final long inputTokens;
    private final long ingressAt;
    private final RequestProgress.Updater progress;
    private String tenant;
    private WorkerWithDpRank pinned;
    private WorkerWithDpRank target;
    private long dueAt = NO_DEADLINE;
    private FakeWakeup wakeup;

    public FakeRequest(String requestId, SessionContext session, long inputTokens, long ingressAt) {
        this.requestId = requestId;
        this.session = session;
        this.inputTokens = inputTokens;
        this.ingressAt = ingressAt;
        this.progress = RequestProgress.create(inputTokens);
    }

    public FakeRequest tenant(String name) {
        this.tenant = name;
        return this;
    }

    public FakeRequest pinned(WorkerWithDpRank worker) {
        this.pinned = worker;
        return this;
    }

    /** Raises the live context count, as the engine's usage reports do. */
    public void progressTo(long tokens) {
        progress.updateContextTokens(tokens);
    }

    /** True once the classifier's park was woken with an admit. */
    public boolean woken() {
        return wakeup != null && wakeup.admitted;
    }

    /** The error the classifier's park was woken with, or {@code null}. */
    public AdmissionError rejection() {
        return wakeup == null ? null : wakeup.rejected;
    }

    /** The lifecycle ended (client gone): later wake-ups return false. */
    public void end() {
        if (wakeup == null) {
            wakeup = new FakeWakeup();
        }
        wakeup.ended = true;
    }

    @Override
    public String requestId() {
        return requestId;
    }

    @Override
    public SessionContext sessionContext() {
        return session;
    }

    @Override
    public String tenant() {
        return tenant;
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
        return progress.progress();
    }

    @Override
    public WorkerWithDpRank pinnedWorker() {
        return pinned;
    }

    @Override
    public String policyClass() {
        return null;
    }

    @Override
    public long dueAt() {
        return dueAt;
    }

    @Override
    public long schedulingCostTokens() {
        return Math.max(1, inputTokens);
    }

    @Override
    public WorkerWithDpRank workerSelectionTarget() {
        return target;
    }

    @Override
    public void setPolicyClass(String policyClass) {
        throw new UnsupportedOperationException("not used by these tests");
    }

    @Override
    public void setDueAt(long dueAtNanos) {
        this.dueAt = dueAtNanos;
    }

    @Override
    public void setSchedulingCostTokens(long tokens) {
        throw new UnsupportedOperationException("not used by these tests");
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
        if (wakeup == null) {
            wakeup = new FakeWakeup();
        }
        return wakeup;
    }

    private static final class FakeWakeup implements Wakeup {
        boolean admitted;
        AdmissionError rejected;
        boolean ended;

        @Override
        public boolean admit() {
            if (ended || isDecided()) {
                return false;
            }
            admitted = true;
            return true;
        }

        @Override
        public boolean reject(AdmissionError error) {
            if (ended || isDecided()) {
                return false;
            }
            rejected = error;
            return true;
        }

        @Override
        public boolean isDecided() {
            return admitted || rejected != null;
        }
    }
}
