package dev.sluice.plugins.ratelimit;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyEvent;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.ErrorClass;
import dev.sluice.core.spi.RequestClassifier;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.agrona.concurrent.NanoClock;

/**
 * Per-tenant rate limits: each tenant (the request's {@code tenant()}, or the configured default key when it has
 * none) has a requests-per-minute and a tokens-per-minute bucket. A request is admitted only if both buckets can
 * take it (one request, its input tokens); otherwise it is rejected with {@link ErrorClass#RATE_LIMITED} (429) and
 * a {@code Retry-After} of when both would. With {@code count_completion_tokens} the generated tokens of a completed
 * request are charged afterwards, as debt that delays the tenant's next requests.
 *
 * <p>The least recently seen tenant is forgotten when more than {@code max_tenants} are tracked: its next request
 * starts with full buckets. Owned by the scheduler thread; not thread-safe.
 *
 * <p>With {@code scope: cluster} the buckets are one budget for all replicas, held in the host's shared store and
 * claimed in chunks by a {@link ClusterLimiter}; requests its leases cannot cover park until a claim answers.
 */
final class TokenRateLimitClassifier implements RequestClassifier {
    private static final AdmissionError LIMITED = AdmissionError.of(ErrorClass.RATE_LIMITED)
        .reason("rate_limited")
        .publicMessage("Rate limit exceeded; retry later");

    private record InFlight(String tenantKey, long inputTokens) {
    }

    private final RateLimitSettings settings;
    private final NanoClock clock;
    private final Map<String, TenantBuckets> tenants;
    private final Map<String, InFlight> inFlight = new HashMap<>();
    private final ClusterLimiter cluster;

    /** @param cluster the shared budget of {@code scope: cluster}; {@code null} for per-replica buckets. */
    TokenRateLimitClassifier(RateLimitSettings settings, NanoClock clock, ClusterLimiter cluster) {
        this.settings = settings;
        this.clock = clock;
        this.cluster = cluster;
        int max = settings.maxTenants();
        this.tenants = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, TenantBuckets> eldest) {
                return size() > max;
            }
        };
    }

    @Override
    public Classification classify(ClassifyRequest request) {
        String key = request.tenant() == null || request.tenant().isEmpty() ? settings.defaultTenant()
            : request.tenant();
        if (cluster != null) {
            Classification answer = cluster.classify(request, key);
            if (settings.countCompletionTokens() && answer.kind() != Classification.Kind.REJECT) {
                inFlight.put(request.requestId(), new InFlight(key, request.inputTokens()));
            }
            return answer;
        }
        TenantBuckets buckets = tenants.computeIfAbsent(key, k -> new TenantBuckets(settings.limitsOf(k)));
        long now = clock.nanoTime();
        long wait = buckets.waitFor(request.inputTokens(), now);
        if (wait > 0) {
            return Classification.reject(LIMITED
                .diagnostic("tenant \"" + key + "\" is over its " + buckets.exceeded(request.inputTokens(), now))
                .retryAfter(Duration.ofNanos(wait)));
        }
        buckets.charge(request.inputTokens(), now);
        if (settings.countCompletionTokens()) {
            inFlight.put(request.requestId(), new InFlight(key, request.inputTokens()));
        }
        return Classification.admit(request);
    }

    @Override
    public void onEvent(ClassifyEvent event) {
        if (!event.isTerminal() || inFlight.isEmpty()) {
            return;
        }
        InFlight admitted = inFlight.remove(event.requestId());
        if (admitted == null || !(event instanceof ClassifyEvent.Completed completed)
            || completed.contextTokens().isEmpty()) {
            return;
        }
        long generated = completed.contextTokens().getAsLong() - admitted.inputTokens();
        if (cluster != null) {
            if (generated > 0) {
                cluster.chargeCompletion(admitted.tenantKey(), generated);
            }
            return;
        }
        // Peek without refreshing recency: a completion is not a new request from the tenant.
        TenantBuckets buckets = tenants.get(admitted.tenantKey());
        if (generated > 0 && buckets != null) {
            buckets.chargeTokens(generated, clock.nanoTime());
        }
    }

    /** The cluster budget, or {@code null} with {@code scope: replica}; for tests. */
    ClusterLimiter cluster() {
        return cluster;
    }

    /** Tenants whose buckets are kept, for tests. */
    int trackedTenants() {
        return tenants.size();
    }

    /** Requests whose completion will be charged, for tests. */
    int trackedRequests() {
        return inFlight.size();
    }
}
