package dev.sluice.core.config;

import java.util.Objects;

/**
 * One entry of {@code uncached_isl_buckets}: requests with at least {@code minTokens} uncached input tokens (and
 * fewer than the next bucket's floor) fall in this bucket.
 */
public record CacheBucket(long minTokens, String name) {
    public CacheBucket {
        Objects.requireNonNull(name, "name");
        if (minTokens < 0) {
            throw new IllegalArgumentException("minTokens must be >= 0, was " + minTokens);
        }
    }
}
