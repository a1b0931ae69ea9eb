package dev.sluice.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every profile rule of dynamo.md §4.2–4.3, one invalid document each, with the exact message: dynamo-tests.md
 * §3.1 test 13 ({@code rejects_interacting_profile_errors}, dynamo.md §9 item 28) and the rules it does not cover.
 */
class ProfileValidationTest {
    private static final String BUCKETS = """
        default_policy_family: standard
        uncached_isl_buckets:
          - min_tokens: 0
            bucket: cached
          - min_tokens: 64
            bucket: uncached
        policy_classes:
        """;

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidProfiles")
    void shouldRejectInvalidProfileWithLineAndPath(String rule, String yaml, String message) {
        assertEquals(message, ConfigFixtures.rejection(yaml).getMessage());
    }

    static Stream<Arguments> invalidProfiles() {
        return Stream.of(
            Arguments.of("missing family x bucket class", BUCKETS + """
                  - name: cached
                    policy_family: standard
                    cache_bucket: cached
                    quantum: 1
                """, "<inline>:7:1: policy_classes: is missing a policy class for family \"standard\" and bucket"
                + " \"uncached\""),
            Arguments.of("duplicate family x bucket", BUCKETS + """
                  - name: a
                    policy_family: standard
                    cache_bucket: cached
                    quantum: 1
                  - name: b
                    policy_family: standard
                    cache_bucket: cached
                    quantum: 1
                """, "<inline>:13:5: policy_classes[1].policy_family: contains duplicate policy classes for family"
                + " \"standard\" and bucket \"cached\""),
            Arguments.of("family not an identifier", BUCKETS + """
                  - name: a
                    policy_family: invalid/family
                    cache_bucket: cached
                    quantum: 1
                """, "<inline>:9:5: policy_classes[0].policy_family: policy family name \"invalid/family\" must match"
                + " [A-Za-z0-9_.-]+"),
            Arguments.of("unknown bucket reference", BUCKETS + """
                  - name: a
                    policy_family: standard
                    cache_bucket: warm
                    quantum: 1
                """, "<inline>:10:5: policy_classes[0].cache_bucket: policy class \"a\" references unknown cache"
                + " bucket \"warm\""),
            Arguments.of("family without bucket", BUCKETS + """
                  - name: a
                    policy_family: standard
                    quantum: 1
                """, "<inline>:9:5: policy_classes[0].policy_family: policy class \"a\" must specify both"
                + " policy_family and cache_bucket or neither for an explicit class"),
            Arguments.of("bucket without family", BUCKETS + """
                  - name: a
                    cache_bucket: cached
                    quantum: 1
                """, "<inline>:9:5: policy_classes[0].cache_bucket: policy class \"a\" must specify both"
                + " policy_family and cache_bucket or neither for an explicit class"),
            Arguments.of("explicit class collides with family", """
                default_policy_family: priority
                uncached_isl_buckets:
                  - min_tokens: 0
                    bucket: all
                policy_classes:
                  - name: all_priority
                    policy_family: priority
                    cache_bucket: all
                    quantum: 1
                  - name: priority
                    quantum: 1
                """, "<inline>:10:5: policy_classes[1].name: explicit policy class \"priority\" collides with a"
                + " policy family"),
            Arguments.of("first bucket not at zero", """
                default_policy_family: standard
                uncached_isl_buckets:
                  - min_tokens: 1
                    bucket: all
                policy_classes:
                  - name: a
                    policy_family: standard
                    cache_bucket: all
                    quantum: 1
                """, "<inline>:3:5: uncached_isl_buckets[0].min_tokens: uncached_isl_buckets must start at"
                + " min_tokens 0"),
            Arguments.of("duplicate bucket name", """
                default_policy_family: standard
                uncached_isl_buckets:
                  - min_tokens: 0
                    bucket: all
                  - min_tokens: 64
                    bucket: all
                policy_classes:
                  - name: a
                    policy_family: standard
                    cache_bucket: all
                    quantum: 1
                """, "<inline>:6:5: uncached_isl_buckets[1].bucket: contains duplicate cache bucket \"all\""),
            Arguments.of("bucket floors not increasing", """
                default_policy_family: standard
                uncached_isl_buckets:
                  - min_tokens: 0
                    bucket: small
                  - min_tokens: 64
                    bucket: medium
                  - min_tokens: 32
                    bucket: large
                policy_classes:
                  - name: a
                    policy_family: standard
                    cache_bucket: small
                    quantum: 1
                """, "<inline>:7:5: uncached_isl_buckets[2].min_tokens: uncached_isl_buckets min_tokens must be"
                + " strictly increasing"),
            Arguments.of("quantum zero", BUCKETS + """
                  - name: a
                    policy_family: standard
                    cache_bucket: cached
                    quantum: 0
                """, "<inline>:11:5: policy_classes[0].quantum: quantum must be greater than zero"),
            Arguments.of("queue_policy lcfs", BUCKETS + """
                  - name: a
                    policy_family: standard
                    cache_bucket: cached
                    queue_policy: lcfs
                    quantum: 1
                """, "<inline>:11:5: policy_classes[0].queue_policy: queue_policy must be fcfs or wspt"),
            Arguments.of("queue_policy unknown", BUCKETS + """
                  - name: a
                    policy_family: standard
                    cache_bucket: cached
                    queue_policy: random
                    quantum: 1
                """, "<inline>:11:5: policy_classes[0].queue_policy: queue_policy must be fcfs or wspt, found"
                + " \"random\""),
            Arguments.of("empty bucket list", """
                default_policy_family: standard
                uncached_isl_buckets: []
                policy_classes:
                  - name: a
                    quantum: 1
                """, "<inline>:2:1: uncached_isl_buckets: uncached_isl_buckets must not be empty"),
            Arguments.of("empty class list", """
                default_policy_family: standard
                uncached_isl_buckets:
                  - min_tokens: 0
                    bucket: all
                policy_classes: []
                """, "<inline>:5:1: policy_classes: policy_classes must not be empty"),
            Arguments.of("class name not an identifier", BUCKETS + """
                  - name: bad name
                    quantum: 1
                """, "<inline>:8:5: policy_classes[0].name: policy class name \"bad name\" must match"
                + " [A-Za-z0-9_.-]+"),
            Arguments.of("bucket name not an identifier", """
                default_policy_family: standard
                uncached_isl_buckets:
                  - min_tokens: 0
                    bucket: "a/b"
                policy_classes:
                  - name: a
                    quantum: 1
                """, "<inline>:4:5: uncached_isl_buckets[0].bucket: cache bucket name \"a/b\" must match"
                + " [A-Za-z0-9_.-]+"),
            Arguments.of("duplicate class name", BUCKETS + """
                  - name: a
                    policy_family: standard
                    cache_bucket: cached
                    quantum: 1
                  - name: a
                    policy_family: standard
                    cache_bucket: uncached
                    quantum: 1
                """, "<inline>:12:5: policy_classes[1].name: contains duplicate policy class \"a\""),
            Arguments.of("default family not configured", BUCKETS + """
                  - name: a
                    policy_family: latency
                    cache_bucket: cached
                    quantum: 1
                  - name: b
                    policy_family: latency
                    cache_bucket: uncached
                    quantum: 1
                """, "<inline>:1:1: default_policy_family: default_policy_family \"standard\" does not name a"
                + " configured family"),
            Arguments.of("default family only explicit classes", """
                default_policy_family: standard
                uncached_isl_buckets:
                  - min_tokens: 0
                    bucket: all
                policy_classes:
                  - name: standard
                    quantum: 1
                """, "<inline>:1:1: default_policy_family: default_policy_family \"standard\" does not name a"
                + " configured family"),
            Arguments.of("default family not an identifier", """
                default_policy_family: ""
                uncached_isl_buckets:
                  - min_tokens: 0
                    bucket: all
                policy_classes:
                  - name: a
                    quantum: 1
                """, "<inline>:1:1: default_policy_family: policy family name \"\" must match [A-Za-z0-9_.-]+"),
            Arguments.of("negative frac", BUCKETS + """
                  - name: a
                    quantum: 1
                    prefill_busy_threshold_frac: -0.5
                """, "<inline>:10:5: policy_classes[0].prefill_busy_threshold_frac: prefill_busy_threshold_frac"
                + " must be finite and non-negative"),
            Arguments.of("infinite frac", BUCKETS + """
                  - name: a
                    quantum: 1
                    prefill_busy_threshold_frac: .inf
                """, "<inline>:10:5: policy_classes[0].prefill_busy_threshold_frac: prefill_busy_threshold_frac"
                + " must be finite and non-negative"),
            Arguments.of("frac not a number", BUCKETS + """
                  - name: a
                    quantum: 1
                    prefill_busy_threshold_frac: .nan
                """, "<inline>:10:5: policy_classes[0].prefill_busy_threshold_frac: prefill_busy_threshold_frac"
                + " must be finite and non-negative"),
            Arguments.of("frac overflowing to infinity", BUCKETS + """
                  - name: a
                    quantum: 1
                    prefill_busy_threshold_frac: 1e400
                """, "<inline>:10:5: policy_classes[0].prefill_busy_threshold_frac: prefill_busy_threshold_frac"
                + " must be finite and non-negative"),
            Arguments.of("negative limit", BUCKETS + """
                  - name: a
                    quantum: 1
                    request_queue_limit_per_worker: -1
                """, "<inline>:10:5: policy_classes[0].request_queue_limit_per_worker: expected a non-negative"
                + " integer, found -1"),
            Arguments.of("negative threshold", BUCKETS + """
                  - name: a
                    quantum: 1
                    prefill_busy_threshold: -5
                """, "<inline>:10:5: policy_classes[0].prefill_busy_threshold: expected a non-negative integer,"
                + " found -5"),
            Arguments.of("quantum missing", BUCKETS + """
                  - name: a
                    policy_family: standard
                    cache_bucket: cached
                """, "<inline>:8:5: policy_classes[0]: missing required key \"quantum\""),
            Arguments.of("model profile error names the model in the path", """
                models:
                  example/large-model:
                    default_policy_family: latency
                    uncached_isl_buckets:
                      - min_tokens: 0
                        bucket: cached
                    policy_classes:
                      - name: latency_cached
                        policy_family: latency
                        cache_bucket: cached
                        quantum: 0
                """, "<inline>:11:9: models.\"example/large-model\".policy_classes[0].quantum: quantum must be"
                + " greater than zero"));
    }
}
