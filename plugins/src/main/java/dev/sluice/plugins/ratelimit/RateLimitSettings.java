package dev.sluice.plugins.ratelimit;

import dev.sluice.core.api.BudgetLedger;
import java.util.Map;

/**
 * The validated settings of a {@code token-rate-limit} classifier. Immutable.
 *
 * @param defaults              the limits of a tenant without an override.
 * @param overrides             per-tenant limits, by bucket key.
 * @param defaultTenant         the bucket key of requests without a tenant.
 * @param maxTenants            how many tenants' buckets are kept; the least recently seen is forgotten first.
 * @param countCompletionTokens whether generated tokens are charged to the token bucket when a request completes.
 * @param cluster               with {@code scope: cluster}, how the budget is shared; {@code null} for
 *                              {@code scope: replica} (each replica its own buckets).
 */
record RateLimitSettings(Limits defaults, Map<String, Limits> overrides, String defaultTenant, int maxTenants,
                         boolean countCompletionTokens, ClusterSettings cluster) {
    /** The largest per-minute limit; keeps the bucket arithmetic exact in 64 bits. */
    static final long MAX_PER_MINUTE = BudgetLedger.MAX_PER_MINUTE;

    /**
     * The limits of one tenant; 0 means unlimited.
     *
     * @param requestsPerMinute admitted requests per minute.
     * @param tokensPerMinute   input (and optionally completion) tokens per minute.
     */
    record Limits(long requestsPerMinute, long tokensPerMinute) {
    }

    RateLimitSettings {
        overrides = Map.copyOf(overrides);
    }

    /** The limits that apply to {@code tenantKey}. */
    Limits limitsOf(String tenantKey) {
        return overrides.getOrDefault(tenantKey, defaults);
    }
}
