package dev.sluice.plugins.ratelimit;

/**
 * The two buckets of one tenant; a limit of 0 has no bucket. Owned by the scheduler thread; not thread-safe.
 */
final class TenantBuckets {
    private final RateBucket requests;
    private final RateBucket tokens;
    private final RateLimitSettings.Limits limits;

    TenantBuckets(RateLimitSettings.Limits limits) {
        this.limits = limits;
        this.requests = limits.requestsPerMinute() > 0 ? new RateBucket(limits.requestsPerMinute()) : null;
        this.tokens = limits.tokensPerMinute() > 0 ? new RateBucket(limits.tokensPerMinute()) : null;
    }

    /** Nanoseconds until one request of {@code inputTokens} fits both buckets; 0 when it fits now. */
    long waitFor(long inputTokens, long nowNs) {
        long wait = requests == null ? 0 : requests.waitFor(1, nowNs);
        return tokens == null ? wait : Math.max(wait, tokens.waitFor(inputTokens, nowNs));
    }

    /** Which limit a request of {@code inputTokens} exceeds now, for the operator's diagnostic. */
    String exceeded(long inputTokens, long nowNs) {
        boolean byRequests = requests != null && requests.waitFor(1, nowNs) > 0;
        boolean byTokens = tokens != null && tokens.waitFor(inputTokens, nowNs) > 0;
        if (byRequests && byTokens) {
            return "requests_per_minute (" + limits.requestsPerMinute() + ") and tokens_per_minute ("
                + limits.tokensPerMinute() + ")";
        }
        return byRequests ? "requests_per_minute (" + limits.requestsPerMinute() + ")"
            : "tokens_per_minute (" + limits.tokensPerMinute() + ")";
    }

    /** Charges one admitted request. */
    void charge(long inputTokens, long nowNs) {
        if (requests != null) {
            requests.charge(1, nowNs);
        }
        chargeTokens(inputTokens, nowNs);
    }

    /** Charges tokens after the fact (completion tokens); may leave the bucket in debt. */
    void chargeTokens(long count, long nowNs) {
        if (tokens != null) {
            tokens.charge(count, nowNs);
        }
    }

    /** Requests that would fit now, or -1 without a request limit; for tests. */
    long requestsAvailable(long nowNs) {
        return requests == null ? -1 : requests.available(nowNs);
    }

    /** Tokens that would fit now, or -1 without a token limit; for tests. */
    long tokensAvailable(long nowNs) {
        return tokens == null ? -1 : tokens.available(nowNs);
    }
}
