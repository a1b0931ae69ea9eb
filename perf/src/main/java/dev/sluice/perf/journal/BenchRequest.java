package dev.sluice.perf.journal;

import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.SessionContext;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.RequestView;

/** A fixed request as the journal sees it: typical header sizes, a session, a deadline. Immutable. */
final class BenchRequest implements RequestView {
    private static final SessionContext SESSION = new SessionContext("session-0123456789", null,
        SessionContext.Finality.UNSPECIFIED, SessionContext.InputTrigger.USER_MESSAGE);

    @Override
    public Stage stage() {
        return Stage.QUEUED;
    }

    @Override
    public long lifecycleId() {
        return 123_456_789L;
    }

    @Override
    public String requestId() {
        return "chatcmpl-0123456789abcdef";
    }

    @Override
    public String clientRequestId() {
        return "client-7f3a";
    }

    @Override
    public long inputTokens() {
        return 1234;
    }

    @Override
    public String requestedPolicyClass() {
        return "interactive";
    }

    @Override
    public SessionContext sessionContext() {
        return SESSION;
    }

    @Override
    public String tenant() {
        return "acme";
    }

    @Override
    public WorkerWithDpRank pinnedWorker() {
        return null;
    }

    @Override
    public int requestedStrictPriority() {
        return 0;
    }

    @Override
    public double requestedPriorityJump() {
        return 0;
    }

    @Override
    public long ingressAt() {
        return 1_000_000L;
    }

    @Override
    public String policyClassOverride() {
        return null;
    }

    @Override
    public long dueAt() {
        return ClassifyRequest.NO_DEADLINE;
    }

    @Override
    public long costOverride() {
        return 0;
    }

    @Override
    public WorkerWithDpRank workerSelectionTarget() {
        return null;
    }

    @Override
    public WorkerWithDpRank worker() {
        return WORKER;
    }

    static final WorkerWithDpRank WORKER = WorkerWithDpRank.of(3);

    @Override
    public int classIndex() {
        return 1;
    }

    @Override
    public long enqueuedAt() {
        return 1_000_000L;
    }

    @Override
    public long cachedTokens() {
        return 0;
    }

    @Override
    public long costTokens() {
        return 1234;
    }

    @Override
    public int promptBlocks() {
        return 0;
    }

    @Override
    public long promptBlockHash(int block) {
        throw new IndexOutOfBoundsException("no prompt blocks");
    }
}
