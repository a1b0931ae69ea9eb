package dev.sluice.plugins.ratelimit;

/**
 * The settings of {@code scope: cluster}: one budget per tenant for all replicas, claimed from the host's shared
 * store in chunks. Immutable.
 *
 * @param replicas       how many replicas share the budget; with {@code fail_policy: open} each limits a tenant to
 *                       limit / replicas while the store is unreachable.
 * @param failPolicy     what a replica does while the store is unreachable.
 * @param chunkRequests  requests claimed at a time; 0: the tenant's limit / (10 x replicas), at least 1.
 * @param chunkTokens    tokens claimed at a time; 0: likewise from the token limit.
 * @param claimTimeoutNs how long a claim may take before the store counts as unreachable.
 * @param retryNs        how long after a failed claim the store is tried again (one probe, no request waits on it).
 */
record ClusterSettings(int replicas, FailPolicy failPolicy, long chunkRequests, long chunkTokens, long claimTimeoutNs,
                       long retryNs) {
    /** What a replica does while the shared store cannot be reached. */
    enum FailPolicy {
        /** Limit each tenant locally to its limit / replicas. */
        OPEN,
        /** Reject the tenant's requests with 503 {@code rate_limit_store_unavailable}. */
        CLOSED
    }

    /** The chunk of a limit: the configured one (at most the limit), or the limit / (10 x replicas). */
    long chunkOf(long limitPerMinute, long configured) {
        if (configured > 0) {
            return Math.min(configured, limitPerMinute);
        }
        return Math.max(1, limitPerMinute / (10L * replicas));
    }

    /** A replica's share of a limit while the store is unreachable (0 stays unlimited). */
    long fallbackOf(long limitPerMinute) {
        return limitPerMinute == 0 ? 0 : Math.max(1, limitPerMinute / replicas);
    }
}
