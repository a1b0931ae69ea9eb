package dev.sluice.core.host;

import dev.sluice.core.api.SessionContext;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.kv.BlockHasher;
import java.util.Objects;

/**
 * What the frontend knows about a request when it asks for admission. Immutable: the router copies the fields on
 * its own thread, so one instance may be submitted many times (a load generator can reuse it).
 */
public final class AdmissionRequest {
    private static final long[] EMPTY = new long[0];

    private final String requestId;
    private final String clientRequestId;
    private final long inputTokens;
    private final String policyClass;
    private final SessionContext sessionContext;
    private final WorkerWithDpRank pinnedWorker;
    private final int strictPriority;
    private final double priorityJump;
    private final String tenant;
    private final long[] localBlockHashes;
    private final long[] sequenceBlockHashes;

    private AdmissionRequest(Builder builder) {
        this.requestId = builder.requestId;
        this.clientRequestId = builder.clientRequestId;
        this.inputTokens = builder.inputTokens;
        this.policyClass = builder.policyClass;
        this.sessionContext = builder.sessionContext;
        this.pinnedWorker = builder.pinnedWorker;
        this.strictPriority = builder.strictPriority;
        this.priorityJump = builder.priorityJump;
        this.tenant = builder.tenant;
        this.localBlockHashes = builder.localBlockHashes;
        this.sequenceBlockHashes = builder.sequenceBlockHashes;
    }

    /**
     * A builder for a request with this id: the host's own, which lifecycle events, plugins and the journal key on;
     * at most one live request per router has it (a second is refused {@code duplicate_request_id}). The frontend
     * makes a fresh one for every request; the client's {@code x-request-id} is its {@link #clientRequestId()}.
     */
    public static Builder builder(String requestId) {
        return new Builder(requestId);
    }

    /** The host's id for the request, unique among the router's live requests. */
    public String requestId() {
        return requestId;
    }

    /**
     * The client's own label for the request (the frontend's {@code x-request-id}), or {@code null}. Journaled and
     * shown to plugins, never a key: any number of live requests may carry the same one.
     */
    public String clientRequestId() {
        return clientRequestId;
    }

    /** Input tokens on the router's basis. */
    public long inputTokens() {
        return inputTokens;
    }

    /** The class named by {@code x-dynamo-meta-policy-class}, or {@code null}. */
    public String policyClass() {
        return policyClass;
    }

    /** Session headers, or {@code null}. */
    public SessionContext sessionContext() {
        return sessionContext;
    }

    /** The hard pin, or {@code null}. */
    public WorkerWithDpRank pinnedWorker() {
        return pinnedWorker;
    }

    /** {@code x-dynamo-request-strict-priority}: higher goes first within a class. */
    public int strictPriority() {
        return strictPriority;
    }

    /** {@code x-dynamo-request-priority}: seconds of head start (FCFS) or weight bonus (WSPT). */
    public double priorityJump() {
        return priorityJump;
    }

    /** The caller's tenant as the frontend established it, or {@code null}. */
    public String tenant() {
        return tenant;
    }

    /**
     * The local hashes of the prompt's complete KV blocks (empty when the prompt's tokens are unknown). The array is
     * shared with the router, not copied: read it, never modify it.
     */
    public long[] localBlockHashes() {
        return localBlockHashes;
    }

    /** The sequence hashes (block identities) of the prompt's complete KV blocks, same length; shared, read-only. */
    public long[] sequenceBlockHashes() {
        return sequenceBlockHashes;
    }

    /** Complete KV blocks of the prompt the router can match against caches. */
    public int promptBlocks() {
        return localBlockHashes.length;
    }

    @Override
    public String toString() {
        return "AdmissionRequest[" + requestId + (clientRequestId != null ? " (client's " + clientRequestId + ")" : "")
            + ", " + inputTokens + " tokens"
            + (policyClass != null ? ", class " + policyClass : "")
            + (sessionContext != null ? ", session " + sessionContext.sessionId() : "") + "]";
    }

    /** Builds an {@link AdmissionRequest}. */
    public static final class Builder {
        private final String requestId;
        private String clientRequestId;
        private long inputTokens;
        private String policyClass;
        private SessionContext sessionContext;
        private WorkerWithDpRank pinnedWorker;
        private int strictPriority;
        private double priorityJump;
        private String tenant;
        private long[] localBlockHashes = EMPTY;
        private long[] sequenceBlockHashes = EMPTY;

        private Builder(String requestId) {
            Objects.requireNonNull(requestId, "requestId");
            if (requestId.isEmpty()) {
                throw new IllegalArgumentException("requestId must not be empty");
            }
            this.requestId = requestId;
        }

        public Builder inputTokens(long tokens) {
            if (tokens < 0) {
                throw new IllegalArgumentException("inputTokens must be >= 0, was " + tokens);
            }
            this.inputTokens = tokens;
            return this;
        }

        public Builder policyClass(String name) {
            this.policyClass = name;
            return this;
        }

        public Builder sessionContext(SessionContext session) {
            this.sessionContext = session;
            return this;
        }

        public Builder pinnedWorker(WorkerWithDpRank worker) {
            this.pinnedWorker = worker;
            return this;
        }

        public Builder strictPriority(int priority) {
            this.strictPriority = priority;
            return this;
        }

        public Builder priorityJump(double seconds) {
            if (!Double.isFinite(seconds)) {
                throw new IllegalArgumentException("priorityJump must be finite, was " + seconds);
            }
            this.priorityJump = seconds;
            return this;
        }

        /**
         * The prompt's token ids: sets the input size and the block hashes the router matches against the workers'
         * caches. {@code hasher}'s block size must be the router's.
         */
        public Builder promptTokens(int[] tokens, BlockHasher hasher) {
            this.inputTokens = tokens.length;
            this.localBlockHashes = hasher.localHashes(tokens);
            this.sequenceBlockHashes = BlockHasher.sequenceHashes(localBlockHashes);
            return this;
        }

        /**
         * The local hashes of the prompt's complete KV blocks, when the tokens themselves are gone (a replay of a
         * journal): the sequence hashes are derived from them. Does not change the input size.
         */
        public Builder promptBlockHashes(long[] localHashes) {
            this.localBlockHashes = localHashes.clone();
            this.sequenceBlockHashes = BlockHasher.sequenceHashes(this.localBlockHashes);
            return this;
        }

        /** The client's label for the request ({@code x-request-id}); {@code null} for none. Need not be unique. */
        public Builder clientRequestId(String label) {
            this.clientRequestId = label;
            return this;
        }

        /** The caller's tenant (from a trusted header or the API key); {@code null} for none. */
        public Builder tenant(String name) {
            this.tenant = name;
            return this;
        }

        public AdmissionRequest build() {
            return new AdmissionRequest(this);
        }
    }
}
