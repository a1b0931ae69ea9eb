package dev.sluice.plugins.ratelimit;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.sluice.core.api.ProviderException;
import dev.sluice.core.api.RequestClassifierParameters;
import dev.sluice.core.spi.RequestClassifierFactory;
import dev.sluice.core.spi.RequestClassifierProvider;
import java.util.HashMap;
import java.util.Map;

/**
 * The {@code token-rate-limit} classifier type: per-tenant requests-per-minute and tokens-per-minute limits.
 *
 * <pre>{@code
 * request_classifier:
 *   type: token-rate-limit
 *   parameters:
 *     requests_per_minute: 600       # per tenant; omit for no request limit
 *     tokens_per_minute: 200000      # per tenant; omit for no token limit
 *     count_completion_tokens: true  # charge generated tokens when a request completes (default false)
 *     default_tenant: anonymous      # the bucket of requests without a tenant (default "anonymous")
 *     max_tenants: 10000             # buckets kept; the least recently seen tenant is forgotten (default 10000)
 *     tenants:                       # per-tenant overrides; an omitted limit inherits the default
 *       acme: {requests_per_minute: 60, tokens_per_minute: 10000}
 *     scope: cluster                 # replica (default): each replica its own buckets; cluster: one budget
 *     cluster:                       # only with scope: cluster
 *       replicas: 3                  # required: the replicas sharing the budget
 *       fail_policy: open            # store unreachable: open (limit / replicas each, default) or closed (503)
 *       chunk_requests: 5            # claimed at a time (default limit / (10 x replicas), at least 1)
 *       chunk_tokens: 2000           # likewise for tokens
 *       claim_timeout_ms: 500        # a claim slower than this counts as the store unreachable (default 500)
 *       retry_ms: 1000               # how soon an unreachable store is tried again (default 1000)
 * }</pre>
 *
 * Unknown parameters, non-positive limits and limits above 100000000 per minute stop startup. With
 * {@code scope: cluster} a tenant gets at most what one bucket of its limit admits plus {@code replicas x chunk} of
 * each limit (see {@link ClusterLimiter}).
 */
public final class TokenRateLimitProvider implements RequestClassifierProvider {
    /** The type name the router-policy YAML selects. */
    public static final String TYPE = "token-rate-limit";

    record Parameters(@JsonProperty("requests_per_minute") Long requestsPerMinute,
                      @JsonProperty("tokens_per_minute") Long tokensPerMinute,
                      @JsonProperty("count_completion_tokens") Boolean countCompletionTokens,
                      @JsonProperty("default_tenant") String defaultTenant,
                      @JsonProperty("max_tenants") Integer maxTenants,
                      @JsonProperty("tenants") Map<String, TenantParameters> tenants,
                      @JsonProperty("scope") String scope,
                      @JsonProperty("cluster") ClusterParameters cluster) {
    }

    record ClusterParameters(@JsonProperty("replicas") Integer replicas,
                             @JsonProperty("fail_policy") String failPolicy,
                             @JsonProperty("chunk_requests") Long chunkRequests,
                             @JsonProperty("chunk_tokens") Long chunkTokens,
                             @JsonProperty("claim_timeout_ms") Long claimTimeoutMs,
                             @JsonProperty("retry_ms") Long retryMs) {
    }

    record TenantParameters(@JsonProperty("requests_per_minute") Long requestsPerMinute,
                            @JsonProperty("tokens_per_minute") Long tokensPerMinute) {
    }

    @Override
    public RequestClassifierFactory provide(RequestClassifierParameters parameters) throws ProviderException {
        RateLimitSettings settings = validate(parameters.bind(Parameters.class));
        return context -> new TokenRateLimitClassifier(settings, context.clock(),
            settings.cluster() == null ? null : new ClusterLimiter(settings, context));
    }

    static RateLimitSettings validate(Parameters p) throws ProviderException {
        long requests = limit("requests_per_minute", p.requestsPerMinute(), 0);
        long tokens = limit("tokens_per_minute", p.tokensPerMinute(), 0);
        Map<String, RateLimitSettings.Limits> overrides = new HashMap<>();
        if (p.tenants() != null) {
            for (Map.Entry<String, TenantParameters> e : p.tenants().entrySet()) {
                String path = "tenants." + e.getKey() + ".";
                TenantParameters t = e.getValue() == null ? new TenantParameters(null, null) : e.getValue();
                overrides.put(e.getKey(), new RateLimitSettings.Limits(
                    limit(path + "requests_per_minute", t.requestsPerMinute(), requests),
                    limit(path + "tokens_per_minute", t.tokensPerMinute(), tokens)));
            }
        }
        if (requests == 0 && tokens == 0 && overrides.isEmpty()) {
            throw new ProviderException("set requests_per_minute, tokens_per_minute or tenants: "
                + "without any limit the classifier would limit nothing");
        }
        String defaultTenant = p.defaultTenant() == null ? "anonymous" : p.defaultTenant();
        if (defaultTenant.isBlank()) {
            throw new ProviderException("default_tenant must not be empty");
        }
        int maxTenants = p.maxTenants() == null ? 10_000 : p.maxTenants();
        if (maxTenants < 1) {
            throw new ProviderException("max_tenants must be positive, was " + maxTenants);
        }
        return new RateLimitSettings(new RateLimitSettings.Limits(requests, tokens), overrides, defaultTenant,
            maxTenants, Boolean.TRUE.equals(p.countCompletionTokens()), cluster(p.scope(), p.cluster()));
    }

    private static ClusterSettings cluster(String scope, ClusterParameters c) throws ProviderException {
        String s = scope == null ? "replica" : scope;
        if (s.equals("replica")) {
            if (c != null) {
                throw new ProviderException("cluster is set but scope is replica: set scope: cluster to share it");
            }
            return null;
        }
        if (!s.equals("cluster")) {
            throw new ProviderException("scope must be replica or cluster, was \"" + s + "\"");
        }
        if (c == null || c.replicas() == null) {
            throw new ProviderException("scope: cluster needs cluster.replicas, the number of replicas sharing "
                + "the budget (each one's share while the store is unreachable is the limit / replicas)");
        }
        if (c.replicas() < 1 || c.replicas() > 1000) {
            throw new ProviderException("cluster.replicas must be between 1 and 1000, was " + c.replicas());
        }
        String policy = c.failPolicy() == null ? "open" : c.failPolicy();
        if (!policy.equals("open") && !policy.equals("closed")) {
            throw new ProviderException("cluster.fail_policy must be open or closed, was \"" + policy + "\"");
        }
        return new ClusterSettings(c.replicas(),
            policy.equals("open") ? ClusterSettings.FailPolicy.OPEN : ClusterSettings.FailPolicy.CLOSED,
            limit("cluster.chunk_requests", c.chunkRequests(), 0), limit("cluster.chunk_tokens", c.chunkTokens(), 0),
            millis("cluster.claim_timeout_ms", c.claimTimeoutMs(), 500, 60_000),
            millis("cluster.retry_ms", c.retryMs(), 1_000, 600_000));
    }

    private static long millis(String name, Long value, long fallback, long max) throws ProviderException {
        long ms = value == null ? fallback : value;
        if (ms < 1 || ms > max) {
            throw new ProviderException(name + " must be between 1 and " + max + ", was " + ms);
        }
        return ms * 1_000_000L;
    }

    private static long limit(String name, Long value, long inherited) throws ProviderException {
        if (value == null) {
            return inherited;
        }
        if (value < 1 || value > RateLimitSettings.MAX_PER_MINUTE) {
            throw new ProviderException(name + " must be between 1 and " + RateLimitSettings.MAX_PER_MINUTE
                + ", was " + value);
        }
        return value;
    }
}
