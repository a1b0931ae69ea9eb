package dev.sluice.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * How loaded profiles resolve requests to classes: dynamo-tests.md §3.1 tests 4, 12 and 14, dynamo.md §9 items
 * 26, 27 and 29 (the §4.5 resolution table, on our own sample file).
 */
class ProfileResolutionTest {
    private static final long MAX = Long.MAX_VALUE;

    @Test
    void shouldResolveDocumentedSampleRootLikeDynamo() throws ConfigException {
        PolicyProfile root = ConfigFixtures.load("policy-class-queues.yaml").root().orElseThrow();

        assertEquals(5, root.classes().size());
        assertEquals("cached", className(root, null, 0));
        assertEquals("latency_cached", className(root, "latency", 0));
        assertEquals("latency_uncached", className(root, "latency", MAX));
        assertEquals("cached", className(root, "unknown", 0));
        assertEquals("cached", className(root, null, 3071));
        assertEquals("uncached", className(root, null, 3072));
        assertEquals("uncached", className(root, null, MAX));
        assertEquals("uncached", className(root, "cached", MAX), "a matrix class name must not bypass bucketing");
        assertEquals("custom_priority", className(root, "custom_priority", MAX), "explicit classes bypass buckets");
        assertEquals(OptionalDouble.of(16.0), root.classes().get(root.resolveLenient(null, 0))
            .prefillBusyThresholdFrac());
    }

    @Test
    void shouldResolveDocumentedSampleModelProfileWithoutRootClasses() throws ConfigException {
        RouterPolicyConfig config = ConfigFixtures.load("policy-class-queues.yaml");
        PolicyProfile model = config.profileFor("example/large-model", OptionalDouble.empty(), QueuePolicy.FCFS);

        assertEquals(4, model.classes().size());
        assertEquals("latency_cached", className(model, null, 0));
        assertEquals("latency_uncached", className(model, "unknown", MAX));
        assertEquals("batch_cached", className(model, "batch", 0));
        assertEquals(-1, model.classIndex("custom_priority"), "a model profile does not inherit root classes");
        assertEquals(-1, model.resolveStrict("custom_priority", 0));
    }

    @Test
    void shouldReplaceRootWithModelProfileAndUseRootForOtherModels() throws ConfigException {
        RouterPolicyConfig config = ConfigFixtures.parse("""
            default_policy_family: standard
            uncached_isl_buckets:
              - min_tokens: 0
                bucket: all
            policy_classes:
              - name: root-default
                policy_family: standard
                cache_bucket: all
                queue_policy: wspt
                quantum: 8
                prefill_busy_threshold: 100
            models:
              exact-model:
                default_policy_family: latency
                uncached_isl_buckets:
                  - min_tokens: 0
                    bucket: cached
                  - min_tokens: 32
                    bucket: uncached
                policy_classes:
                  - name: model-cached
                    policy_family: latency
                    cache_bucket: cached
                    quantum: 2
                    request_queue_limit_per_worker: 0
                  - name: model-uncached
                    policy_family: latency
                    cache_bucket: uncached
                    quantum: 4
                    prefill_busy_threshold_frac: 0.0
            """);

        PolicyProfile exact = config.profileFor("exact-model", OptionalDouble.of(3.0), QueuePolicy.WSPT);
        PolicyClassSpec defaultClass = exact.classes().get(exact.resolveLenient(null, 0));
        assertEquals(2, exact.classes().size());
        assertEquals("model-cached", defaultClass.name());
        assertEquals(OptionalDouble.empty(), defaultClass.prefillBusyThresholdFrac());
        assertFalse(defaultClass.queueingEnabled());
        assertTrue(exact.classes().get(exact.resolveLenient(null, MAX)).queueingEnabled(), "frac 0.0 enables");
        assertEquals(QueuePolicy.FCFS, defaultClass.queuePolicy());
        assertEquals(OptionalLong.of(0), defaultClass.requestQueueLimitPerWorker());
        assertEquals("model-uncached", className(exact, "unknown", MAX));

        PolicyProfile other = config.profileFor("other", OptionalDouble.of(3.0), QueuePolicy.FCFS);
        PolicyClassSpec rootDefault = other.classes().get(other.resolveLenient(null, 0));
        assertEquals("root-default", rootDefault.name());
        assertEquals(OptionalLong.of(100), rootDefault.prefillBusyThreshold());
        assertEquals(OptionalDouble.empty(), rootDefault.prefillBusyThresholdFrac());
        assertEquals(QueuePolicy.WSPT, rootDefault.queuePolicy());
    }

    @Test
    void shouldFallBackToSyntheticProfileForUnmatchedModelWithoutRoot() throws ConfigException {
        RouterPolicyConfig config = ConfigFixtures.parse("""
            models:
              exact-model:
                default_policy_family: standard
                uncached_isl_buckets:
                  - min_tokens: 0
                    bucket: all
                policy_classes:
                  - name: thresholds
                    policy_family: standard
                    cache_bucket: all
                    quantum: 1
                    prefill_busy_threshold: 10
                    prefill_busy_threshold_frac: 0.5
            """);

        PolicyClassSpec exact = config.profileFor("exact-model", OptionalDouble.empty(), QueuePolicy.FCFS)
            .classes().get(0);
        assertTrue(exact.isBusy(11, 10_000_000), "above the absolute threshold");
        assertTrue(exact.isBusy(6, 10), "above half of max_num_batched_tokens");
        assertFalse(exact.isBusy(5, 10), "the comparison is strict");

        PolicyProfile fallback = config.profileFor("unmatched", OptionalDouble.of(7.0), QueuePolicy.WSPT);
        assertTrue(fallback.isSynthetic());
        assertEquals(PolicyProfile.DEFAULT_CLASS, fallback.classes().get(0).name());
        assertEquals(OptionalDouble.of(7.0), fallback.classes().get(0).prefillBusyThresholdFrac());
        assertEquals(QueuePolicy.WSPT, fallback.classes().get(0).queuePolicy());
    }

    @Test
    void shouldKeepYamlOrderAsDrrRingOrderAndFamiliesInFirstAppearanceOrder() throws ConfigException {
        PolicyProfile root = ConfigFixtures.load("policy-class-queues.yaml").root().orElseThrow();

        assertEquals(List.of("cached", "uncached", "latency_cached", "latency_uncached", "custom_priority"),
            root.classes().stream().map(PolicyClassSpec::name).toList());
        assertEquals(List.of("standard", "latency"), root.families());
        assertEquals(List.of(new CacheBucket(0, "cached"), new CacheBucket(3072, "uncached")),
            root.buckets());
    }

    @Test
    void shouldLoadSheddingSampleWithZeroLimitsThatRefuseInsteadOfQueueing() throws ConfigException {
        PolicyProfile root = ConfigFixtures.load("policy-class-shedding.yaml").root().orElseThrow();

        assertEquals("first_attempt", className(root, null, 0));
        assertEquals("retry", className(root, "retry", 0));
        assertTrue(root.classes().get(0).neverQueues());
        assertEquals(OptionalDouble.of(4.0), root.classes().get(1).prefillBusyThresholdFrac());
    }

    private static String className(PolicyProfile profile, String requested, long uncachedTokens) {
        return profile.classes().get(profile.resolveLenient(requested, uncachedTokens)).name();
    }
}
