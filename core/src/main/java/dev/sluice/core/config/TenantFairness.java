package dev.sluice.core.config;

import java.util.Map;
import java.util.Objects;

/**
 * How a policy class shares its dispatches between tenants: {@code none} (the class's own order alone, as Dynamo
 * does) or a virtual token counter (VTC): each tenant is charged the tokens it is served, prompt tokens not found in
 * the cache at {@code promptWeight}, cached ones at {@code cachedWeight} and generated ones at {@code outputWeight},
 * divided by the tenant's weight, and the class dispatches the head of the tenant charged least. With
 * {@code preemptOverServed}, a blocked head may also take a worker back from an over-served tenant's request of the
 * same class that has not produced its first byte (the scheduler's preemption path): a tenant charged at least as
 * much, within VTC's bound of twice one request's charge, and holding more requests in service.
 *
 * @param mode          {@link Mode#NONE} or {@link Mode#VTC}.
 * @param promptWeight  charge per uncached prompt token; finite, non-negative.
 * @param cachedWeight  charge per cached prompt token (the cache discount); finite, non-negative.
 * @param outputWeight  charge per generated token; finite, non-negative.
 * @param maxTenants    tenants tracked at once (least recently seen forgotten first); at least 1.
 * @param tenantWeights per-tenant share weights (default 1.0); each finite and greater than zero.
 * @param preemptOverServed whether the head of the least-charged tenant, blocked because every worker is busy, may
 *                      preempt an unanswered request of this class from an over-served tenant ({@code vtc:
 *                      preempt_over_served}, default false).
 */
public record TenantFairness(Mode mode, double promptWeight, double cachedWeight, double outputWeight, int maxTenants,
                             Map<String, Double> tenantWeights, boolean preemptOverServed) {
    /** The fairness modes of {@code tenant_fairness}. */
    public enum Mode {
        NONE,
        VTC
    }

    public static final double DEFAULT_PROMPT_WEIGHT = 1.0;
    public static final double DEFAULT_CACHED_WEIGHT = 0.1;
    public static final double DEFAULT_OUTPUT_WEIGHT = 2.0;
    public static final int DEFAULT_MAX_TENANTS = 1024;

    /** No tenant fairness: the class's own order decides. */
    public static final TenantFairness NONE = new TenantFairness(Mode.NONE, DEFAULT_PROMPT_WEIGHT,
        DEFAULT_CACHED_WEIGHT, DEFAULT_OUTPUT_WEIGHT, DEFAULT_MAX_TENANTS, Map.of(), false);

    public TenantFairness {
        Objects.requireNonNull(mode, "mode");
        tenantWeights = Map.copyOf(Objects.requireNonNull(tenantWeights, "tenantWeights"));
        requireWeight(promptWeight, "prompt_weight");
        requireWeight(cachedWeight, "cached_weight");
        requireWeight(outputWeight, "output_weight");
        if (maxTenants < 1) {
            throw new IllegalArgumentException("max_tenants must be at least 1, was " + maxTenants);
        }
        for (Map.Entry<String, Double> e : tenantWeights.entrySet()) {
            double w = e.getValue();
            if (!Double.isFinite(w) || w <= 0) {
                throw new IllegalArgumentException("tenant weight of \"" + e.getKey()
                    + "\" must be finite and greater than zero, was " + w);
            }
        }
    }

    /** Without preemption of over-served tenants. */
    public TenantFairness(Mode mode, double promptWeight, double cachedWeight, double outputWeight, int maxTenants,
                          Map<String, Double> tenantWeights) {
        this(mode, promptWeight, cachedWeight, outputWeight, maxTenants, tenantWeights, false);
    }

    /** This fairness with {@code preempt_over_served} set as given. */
    public TenantFairness withPreemptOverServed(boolean preempt) {
        return new TenantFairness(mode, promptWeight, cachedWeight, outputWeight, maxTenants, tenantWeights, preempt);
    }

    /** Whether a blocked head may preempt a more-charged tenant's unanswered request of the class. */
    public boolean preemptsOverServed() {
        return mode == Mode.VTC && preemptOverServed;
    }

    /** VTC with the default weights. */
    public static TenantFairness vtc() {
        return new TenantFairness(Mode.VTC, DEFAULT_PROMPT_WEIGHT, DEFAULT_CACHED_WEIGHT, DEFAULT_OUTPUT_WEIGHT,
            DEFAULT_MAX_TENANTS, Map.of());
    }

    public boolean enabled() {
        return mode == Mode.VTC;
    }

    /** The share weight of a tenant: its configured weight, else 1. */
    public double weightOf(String tenant) {
        Double w = tenant == null ? null : tenantWeights.get(tenant);
        return w == null ? 1.0 : w;
    }

    private static void requireWeight(double w, String key) {
        if (!Double.isFinite(w) || w < 0) {
            throw new IllegalArgumentException(key + " must be finite and non-negative, was " + w);
        }
    }
}
