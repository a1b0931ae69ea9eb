/**
 * The {@code token-rate-limit} classifier: per-tenant requests-per-minute and tokens-per-minute buckets that
 * reject with {@code RATE_LIMITED} (429) and a {@code Retry-After} saying when the bucket refills. With
 * {@code scope: replica} each replica keeps its own buckets ({@code TenantBuckets}, {@code RateBucket}); with
 * {@code scope: cluster} a tenant's budget is one for all replicas, held in the host's shared store and claimed from
 * it in chunks ({@code ClusterLimiter}, {@code ClusterTenant}, {@code ClusterLease}), with a fail policy for when the
 * store cannot be reached.
 */
package dev.sluice.plugins.ratelimit;
