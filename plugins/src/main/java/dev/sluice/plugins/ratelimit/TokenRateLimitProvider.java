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
 * }</pre>
 *
 * Unknown parameters, non-positive limits and limits above 100000000 per minute stop startup.
 */
public final class TokenRateLimitProvider implements RequestClassifierProvider {
    /** The type name the router-policy YAML selects. */
    public static final String TYPE = "token-rate-limit";

    record Parameters(@JsonProperty("requests_per_minute") Long requestsPerMinute,
                      @JsonProperty("tokens_per_minute") Long tokensPerMinute,
                      @JsonProperty("count_completion_tokens") Boolean countCompletionTokens,
                      @JsonProperty("default_tenant") String defaultTenant,
                      @JsonProperty("max_tenants") Integer maxTenants,
                      @JsonProperty("tenants") Map<String, TenantParameters> tenants) {
    }

    record TenantParameters(@JsonProperty("requests_per_minute") Long requestsPerMinute,
                            @JsonProperty("tokens_per_minute") Long tokensPerMinute) {
    }

    @Override
    public RequestClassifierFactory provide(RequestClassifierParameters parameters) throws ProviderException {
        RateLimitSettings settings = validate(parameters.bind(Parameters.class));
        return context -> new TokenRateLimitClassifier(settings, context.clock());
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
            maxTenants, Boolean.TRUE.equals(p.countCompletionTokens()));
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
