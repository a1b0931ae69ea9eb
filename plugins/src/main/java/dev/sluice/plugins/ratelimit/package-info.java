/**
 * The {@code token-rate-limit} classifier: per-tenant requests-per-minute and tokens-per-minute buckets that
 * reject with {@code RATE_LIMITED} (429) and a {@code Retry-After} saying when the bucket refills.
 */
package dev.sluice.plugins.ratelimit;
