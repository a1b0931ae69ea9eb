package dev.sluice.core.api;

import java.util.concurrent.CompletableFuture;

/**
 * Rate buckets shared by every replica of a router, a host service for cluster-scoped limits (the
 * {@code token-rate-limit} classifier's {@code scope: cluster}). Each key names one bucket that holds one minute of
 * its limit and refills continuously (the arithmetic is {@link BudgetLedger}); a replica claims units from it in
 * chunks and spends them locally, so the store sees one write per chunk, not per request. The store makes concurrent
 * claims from all replicas add up exactly (compare-and-set underneath): what it grants never exceeds the bucket.
 *
 * <p>Thread-safe, and never blocks the caller: a claim that needs I/O completes later, on another thread. The host
 * owns the store and its connection; a plugin only claims and refunds. Keys are opaque to the store.
 */
public interface SharedBudgets {
    /** No shared store (a single replica, or no NATS configured): every claim fails at once. */
    SharedBudgets NONE = new SharedBudgets() {
        @Override
        public CompletableFuture<BudgetGrant> claim(String key, long limitPerMinute, long minUnits, long maxUnits) {
            return CompletableFuture.failedFuture(new IllegalStateException("no shared budget store is configured"));
        }

        @Override
        public CompletableFuture<Void> refund(String key, long limitPerMinute, long units) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public boolean configured() {
            return false;
        }
    };

    /**
     * Claims between {@code minUnits} and {@code maxUnits} (both capped at the limit) from bucket {@code key}: as
     * many as it holds now, or none with the time until {@code minUnits} would fit.
     *
     * @param key            the bucket; created full on its first claim.
     * @param limitPerMinute the bucket's size and refill per minute, at most 100000000.
     * @return the grant, or a future failed when the store cannot be reached or gave up on contention.
     */
    CompletableFuture<BudgetGrant> claim(String key, long limitPerMinute, long minUnits, long maxUnits);

    /** Gives back {@code units} claimed and not spent; the bucket never fills beyond its limit. Best effort. */
    CompletableFuture<Void> refund(String key, long limitPerMinute, long units);

    /** False for {@link #NONE}: the host gave the router no store. */
    default boolean configured() {
        return true;
    }
}
