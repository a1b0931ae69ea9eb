package dev.sluice.core.config;

import java.util.Objects;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * One physical policy class: a matrix class (family and cache bucket) or an explicit class (neither).
 *
 * @param name                          unique within its profile; the metric label.
 * @param policyFamily                  the family, or {@code null} for an explicit class.
 * @param cacheBucket                   the bucket, or {@code null} for an explicit class.
 * @param queuePolicy                   order inside the class after strict priority and deadline.
 * @param quantum                       DRR credit per round, in scheduling-cost tokens; greater than zero.
 * @param prefillBusyThreshold          absolute active-prefill-token threshold per worker.
 * @param prefillBusyThresholdFrac      multiple of the worker's {@code max_num_batched_tokens}.
 * @param requestQueueLimitPerWorker    queued requests per discovered worker.
 * @param rawIslTokenQueueLimitPerWorker queued raw input tokens per discovered worker.
 * @param cachedTokenQueueLimitPerWorker queued cached tokens per discovered worker.
 * @param tenantFairness                how dispatches are shared between the class's tenants.
 * @param preemption                    whether the class's unanswered requests may be preempted, and by whom.
 */
public record PolicyClassSpec(
    String name,
    String policyFamily,
    String cacheBucket,
    QueuePolicy queuePolicy,
    long quantum,
    OptionalLong prefillBusyThreshold,
    OptionalDouble prefillBusyThresholdFrac,
    OptionalLong requestQueueLimitPerWorker,
    OptionalLong rawIslTokenQueueLimitPerWorker,
    OptionalLong cachedTokenQueueLimitPerWorker,
    TenantFairness tenantFairness,
    ClassPreemption preemption) {

    /** {@code max_num_batched_tokens} assumed when a worker does not publish it: effectively never busy. */
    public static final long UNKNOWN_MAX_NUM_BATCHED_TOKENS = 10_000_000L;

    public PolicyClassSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(queuePolicy, "queuePolicy");
        Objects.requireNonNull(prefillBusyThreshold, "prefillBusyThreshold");
        Objects.requireNonNull(prefillBusyThresholdFrac, "prefillBusyThresholdFrac");
        Objects.requireNonNull(requestQueueLimitPerWorker, "requestQueueLimitPerWorker");
        Objects.requireNonNull(rawIslTokenQueueLimitPerWorker, "rawIslTokenQueueLimitPerWorker");
        Objects.requireNonNull(cachedTokenQueueLimitPerWorker, "cachedTokenQueueLimitPerWorker");
        Objects.requireNonNull(tenantFairness, "tenantFairness");
        Objects.requireNonNull(preemption, "preemption");
        if (quantum <= 0) {
            throw new IllegalArgumentException("quantum must be greater than zero");
        }
        double frac = prefillBusyThresholdFrac.orElse(0);
        if (!Double.isFinite(frac) || frac < 0) {
            throw new IllegalArgumentException("prefill_busy_threshold_frac must be finite and non-negative");
        }
        requireNonNegative(prefillBusyThreshold, "prefill_busy_threshold");
        requireNonNegative(requestQueueLimitPerWorker, "request_queue_limit_per_worker");
        requireNonNegative(rawIslTokenQueueLimitPerWorker, "raw_isl_token_queue_limit_per_worker");
        requireNonNegative(cachedTokenQueueLimitPerWorker, "cached_token_queue_limit_per_worker");
        if ((policyFamily == null) != (cacheBucket == null)) {
            throw new IllegalArgumentException("policy class \"" + name
                + "\" must specify both policy_family and cache_bucket or neither for an explicit class");
        }
    }

    /** A class without tenant fairness, never preempted, at preemption priority 0. */
    public PolicyClassSpec(String name, String policyFamily, String cacheBucket, QueuePolicy queuePolicy, long quantum,
                           OptionalLong prefillBusyThreshold, OptionalDouble prefillBusyThresholdFrac,
                           OptionalLong requestQueueLimitPerWorker, OptionalLong rawIslTokenQueueLimitPerWorker,
                           OptionalLong cachedTokenQueueLimitPerWorker) {
        this(name, policyFamily, cacheBucket, queuePolicy, quantum, prefillBusyThreshold, prefillBusyThresholdFrac,
            requestQueueLimitPerWorker, rawIslTokenQueueLimitPerWorker, cachedTokenQueueLimitPerWorker,
            TenantFairness.NONE, ClassPreemption.NONE);
    }

    /** A class never preempted, at preemption priority 0. */
    public PolicyClassSpec(String name, String policyFamily, String cacheBucket, QueuePolicy queuePolicy, long quantum,
                           OptionalLong prefillBusyThreshold, OptionalDouble prefillBusyThresholdFrac,
                           OptionalLong requestQueueLimitPerWorker, OptionalLong rawIslTokenQueueLimitPerWorker,
                           OptionalLong cachedTokenQueueLimitPerWorker, TenantFairness tenantFairness) {
        this(name, policyFamily, cacheBucket, queuePolicy, quantum, prefillBusyThreshold, prefillBusyThresholdFrac,
            requestQueueLimitPerWorker, rawIslTokenQueueLimitPerWorker, cachedTokenQueueLimitPerWorker,
            tenantFairness, ClassPreemption.NONE);
    }

    /** This class with another tenant fairness. */
    public PolicyClassSpec withTenantFairness(TenantFairness fairness) {
        return new PolicyClassSpec(name, policyFamily, cacheBucket, queuePolicy, quantum, prefillBusyThreshold,
            prefillBusyThresholdFrac, requestQueueLimitPerWorker, rawIslTokenQueueLimitPerWorker,
            cachedTokenQueueLimitPerWorker, fairness, preemption);
    }

    /** This class with another preemption setting. */
    public PolicyClassSpec withPreemption(ClassPreemption next) {
        return new PolicyClassSpec(name, policyFamily, cacheBucket, queuePolicy, quantum, prefillBusyThreshold,
            prefillBusyThresholdFrac, requestQueueLimitPerWorker, rawIslTokenQueueLimitPerWorker,
            cachedTokenQueueLimitPerWorker, tenantFairness, next);
    }

    /** A class with no thresholds and no limits: requests never wait in the router queue. */
    public static PolicyClassSpec explicit(String name, QueuePolicy policy, long quantum) {
        return new PolicyClassSpec(name, null, null, policy, quantum, OptionalLong.empty(), OptionalDouble.empty(),
            OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty());
    }

    /** True for a matrix class (family and bucket). */
    public boolean isMatrixClass() {
        return policyFamily != null;
    }

    /** Queueing is enabled iff a busy threshold is set (an explicit 0 is the most sensitive setting). */
    public boolean queueingEnabled() {
        return prefillBusyThreshold.isPresent() || prefillBusyThresholdFrac.isPresent();
    }

    /** A per-worker limit of 0 on any dimension: admit only if some worker is free, never queue. */
    public boolean neverQueues() {
        return isZero(requestQueueLimitPerWorker) || isZero(rawIslTokenQueueLimitPerWorker)
            || isZero(cachedTokenQueueLimitPerWorker);
    }

    /**
     * Whether a worker with these active prefill tokens is busy for this class: above the absolute threshold, or
     * above the fraction of its {@code max_num_batched_tokens} (unknown when {@code <= 0}).
     */
    public boolean isBusy(long activePrefillTokens, long maxNumBatchedTokens) {
        if (prefillBusyThreshold.isPresent() && activePrefillTokens > prefillBusyThreshold.getAsLong()) {
            return true;
        }
        if (prefillBusyThresholdFrac.isPresent()) {
            long max = maxNumBatchedTokens > 0 ? maxNumBatchedTokens : UNKNOWN_MAX_NUM_BATCHED_TOKENS;
            return activePrefillTokens > prefillBusyThresholdFrac.getAsDouble() * max;
        }
        return false;
    }

    private static void requireNonNegative(OptionalLong value, String key) {
        if (value.isPresent() && value.getAsLong() < 0) {
            throw new IllegalArgumentException(key + " must be non-negative, was " + value.getAsLong());
        }
    }

    private static boolean isZero(OptionalLong limit) {
        return limit.isPresent() && limit.getAsLong() == 0;
    }
}
