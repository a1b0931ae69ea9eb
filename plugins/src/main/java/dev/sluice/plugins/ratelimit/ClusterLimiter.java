package dev.sluice.plugins.ratelimit;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.BudgetGrant;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.ErrorClass;
import dev.sluice.core.api.RequestClassifierContext;
import dev.sluice.core.api.SharedBudgets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.concurrent.NanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code scope: cluster}: each tenant's limits are one budget for all replicas, kept in the host's
 * {@link SharedBudgets} and claimed from it in chunks ({@link ClusterTenant}). The tenants' table is the scheduler
 * thread's (bounded by {@code max_tenants}; a forgotten tenant gives back what it held); claims and their
 * completions run on the store's threads.
 *
 * <p>The bound: the store grants a dimension no more than one shared bucket of the limit would admit, exactly, and
 * each replica holds at most one chunk of it unspent, so across {@code R} replicas a tenant gets at most what one
 * bucket allows plus {@code R x chunk} (units claimed, then spent after the bucket refilled), plus what the
 * replicas' wall clocks disagree by times the limit per minute.
 */
final class ClusterLimiter {
    private static final Logger LOG = LoggerFactory.getLogger("token-rate-limit");
    private static final BudgetGrant NOTHING = new BudgetGrant(0, 0);
    private static final AdmissionError LIMITED = AdmissionError.of(ErrorClass.RATE_LIMITED)
        .reason("rate_limited")
        .publicMessage("Rate limit exceeded; retry later");
    private static final AdmissionError UNAVAILABLE = AdmissionError.of(ErrorClass.UNAVAILABLE)
        .reason("rate_limit_store_unavailable")
        .publicMessage("Rate limit service unavailable; retry later");

    private final RateLimitSettings settings;
    private final ClusterSettings cluster;
    private final SharedBudgets store;
    private final NanoClock clock;
    private final String model;
    private final Map<String, ClusterTenant> tenants;
    private final AtomicBoolean failing = new AtomicBoolean();
    private final AtomicLong claims = new AtomicLong();
    private final AtomicLong failedClaims = new AtomicLong();

    ClusterLimiter(RateLimitSettings settings, RequestClassifierContext context) {
        this.settings = settings;
        this.cluster = settings.cluster();
        this.store = context.sharedBudgets();
        this.clock = context.clock();
        this.model = context.model();
        if (!store.configured()) {
            throw new IllegalStateException("token-rate-limit scope: cluster needs the budget store the replicas "
                + "share, and the host gave model \"" + model + "\" none (serve: --nats-url)");
        }
        int max = settings.maxTenants();
        this.tenants = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, ClusterTenant> eldest) {
                if (size() > max) {
                    eldest.getValue().release();
                    return true;
                }
                return false;
            }
        };
    }

    /** Decides one request of tenant {@code key}; scheduler thread. */
    Classification classify(ClassifyRequest request, String key) {
        return tenants.computeIfAbsent(key, this::newTenant).classify(request, clock.nanoTime());
    }

    /** Charges a completed request's generated tokens to its tenant, if still tracked; scheduler thread. */
    void chargeCompletion(String key, long generated) {
        ClusterTenant tenant = tenants.get(key);
        if (tenant != null) {
            tenant.chargeTokens(generated, clock.nanoTime());
        }
    }

    /** Sends one claim for both dimensions; the tenant hears the outcome, or a failure after the claim timeout. */
    void send(ClusterTenant tenant, ClusterTenant.Claim claim) {
        claims.incrementAndGet();
        CompletableFuture<BudgetGrant> requests = claim(tenant.requests(), claim.requestsMin(), claim.requestsMax());
        CompletableFuture<BudgetGrant> tokens = claim(tenant.tokens(), claim.tokensMin(), claim.tokensMax());
        CompletableFuture.allOf(requests, tokens).orTimeout(cluster.claimTimeoutNs(), TimeUnit.NANOSECONDS)
            .whenComplete((ignored, failure) -> {
                if (failure != null) {
                    failedClaims.incrementAndGet();
                }
                tenant.onClaimed(result(requests), result(tokens), failure);
            });
    }

    /** Gives back units per dimension ({@code null}: none); best effort, failures only cost budget. */
    void refund(ClusterTenant tenant, long[] units) {
        if (units == null) {
            return;
        }
        refund(tenant.requests(), units[0]);
        refund(tenant.tokens(), units[1]);
    }

    void storeFailed(String tenant, Throwable failure, boolean first) {
        if (first && failing.compareAndSet(false, true)) {
            LOG.warn("token-rate-limit: the shared budget store failed for model {} (tenant \"{}\"): {}; "
                + "fail_policy {} until it answers", model, tenant, failure.toString(), cluster.failPolicy());
        }
    }

    void storeRecovered(String tenant) {
        if (failing.compareAndSet(true, false)) {
            LOG.info("token-rate-limit: the shared budget store answers again for model {} (tenant \"{}\")", model,
                tenant);
        }
    }

    AdmissionError limited(String tenant, String what, long waitNs) {
        return LIMITED.diagnostic("tenant \"" + tenant + "\" is over its " + what)
            .retryAfter(Duration.ofNanos(waitNs));
    }

    AdmissionError unavailable(String tenant) {
        return UNAVAILABLE.diagnostic("the shared budget store cannot be reached for tenant \"" + tenant
            + "\" and fail_policy is closed").retryAfter(Duration.ofNanos(cluster.retryNs()));
    }

    /** How long a request waits parked for a claim before it is answered 503: past the claim's own timeout. */
    long parkNs() {
        return 2 * cluster.claimTimeoutNs();
    }

    long now() {
        return clock.nanoTime();
    }

    ClusterSettings settings() {
        return cluster;
    }

    /** Claims sent and claims that failed or timed out, for tests and diagnostics. */
    long claims() {
        return claims.get();
    }

    long failedClaims() {
        return failedClaims.get();
    }

    /** The tracked tenant, for tests. */
    ClusterTenant tenant(String key) {
        return tenants.get(key);
    }

    private ClusterTenant newTenant(String key) {
        RateLimitSettings.Limits limits = settings.limitsOf(key);
        ClusterLease requests = lease("requests", key, limits.requestsPerMinute(), cluster.chunkRequests());
        ClusterLease tokens = lease("tokens", key, limits.tokensPerMinute(), cluster.chunkTokens());
        TenantBuckets fallback = new TenantBuckets(new RateLimitSettings.Limits(
            cluster.fallbackOf(limits.requestsPerMinute()), cluster.fallbackOf(limits.tokensPerMinute())));
        return new ClusterTenant(this, key, requests, tokens, fallback);
    }

    private ClusterLease lease(String dimension, String tenant, long limit, long chunk) {
        if (limit == 0) {
            return null;
        }
        return new ClusterLease(dimension + "/" + escape(model) + "/" + escape(tenant), limit,
            cluster.chunkOf(limit, chunk));
    }

    private CompletableFuture<BudgetGrant> claim(ClusterLease lease, long min, long max) {
        if (lease == null || max == 0) {
            return CompletableFuture.completedFuture(NOTHING);
        }
        try {
            return store.claim(lease.key, lease.limit, min, max);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private void refund(ClusterLease lease, long units) {
        if (lease != null && units > 0) {
            try {
                store.refund(lease.key, lease.limit, units);
            } catch (RuntimeException e) {
                LOG.debug("token-rate-limit: a refund to the shared budget store failed", e);
            }
        }
    }

    private static BudgetGrant result(CompletableFuture<BudgetGrant> future) {
        return future.isDone() && !future.isCompletedExceptionally() ? future.join() : null;
    }

    /** A key part with its separators escaped, so that no two (model, tenant) pairs share a key. */
    private static String escape(String part) {
        return part.replace("%", "%25").replace("/", "%2F");
    }
}
