package dev.sluice.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Strictness of the YAML layer: duplicate and unknown keys, types, number ranges, aliases and size limits. Also the
 * rejection of schemas of other Dynamo revisions (the Stage-0 flat SLO schema, {@code busy_worker_ratio}).
 */
class StrictYamlTest {
    private static final String CLASS_KEYS = "name, policy_family, cache_bucket, queue_policy, quantum,"
        + " prefill_busy_threshold, prefill_busy_threshold_frac, request_queue_limit_per_worker,"
        + " raw_isl_token_queue_limit_per_worker, cached_token_queue_limit_per_worker, tenant_fairness, vtc,"
        + " preemptible, preemption_priority";
    private static final String ONE_CLASS = """
        default_policy_family: standard
        uncached_isl_buckets:
          - min_tokens: 0
            bucket: all
        policy_classes:
          - name: a
            policy_family: standard
            cache_bucket: all
        """;

    @Test
    void shouldRejectDuplicateKeysNamingTheFirstDefinition() {
        assertEquals("<inline>:10:5: policy_classes[0].quantum: duplicate key \"quantum\" (first defined at line 9)",
            ConfigFixtures.rejection(ONE_CLASS + "    quantum: 1\n    quantum: 2\n").getMessage());
        assertEquals("<inline>:2:1: default_policy_family: duplicate key \"default_policy_family\" (first defined"
            + " at line 1)", ConfigFixtures.rejection("default_policy_family: a\ndefault_policy_family: b\n")
            .getMessage());
    }

    @Test
    void shouldRejectDuplicateModelNames() {
        assertEquals("<inline>:3:3: models.m: duplicate key \"m\" (first defined at line 2)",
            ConfigFixtures.rejection("models:\n  m: {}\n  m: {}\n").getMessage());
    }

    @Test
    void shouldRejectBusyWorkerRatioAsUnknownKey() {
        assertEquals("<inline>:11:5: policy_classes[0].busy_worker_ratio: unknown key \"busy_worker_ratio\"; allowed"
            + " keys: " + CLASS_KEYS, ConfigFixtures.rejection(ONE_CLASS
            + "    quantum: 1\n    prefill_busy_threshold: 10\n    busy_worker_ratio: 0.9\n").getMessage());
    }

    @Test
    void shouldRejectStageZeroFlatSchemaAsUnknownKeys() {
        ConfigException error = ConfigFixtures.fileRejection("stage0-flat-schema.yaml");

        assertEquals("default_policy_class", error.keyPath());
        assertEquals(1, error.line());
        assertEquals("unknown key \"default_policy_class\"; allowed keys: default_policy_family,"
            + " uncached_isl_buckets, policy_classes, models, worker_selection, request_classifier", error.detail());
        assertEquals("<inline>:9:5: policy_classes[0].slo_ms: unknown key \"slo_ms\"; allowed keys: " + CLASS_KEYS,
            ConfigFixtures.rejection(ONE_CLASS + "    slo_ms: 500\n").getMessage());
    }

    @Test
    void shouldRejectOlderQueueAdmissionKey() {
        assertTrue(ConfigFixtures.rejection(ONE_CLASS + "    quantum: 1\n    queue_admission: {type: session_aware}\n")
            .getMessage().contains("policy_classes[0].queue_admission: unknown key \"queue_admission\""));
    }

    @Test
    void shouldSayWhichTypeWasExpected() {
        assertEquals("<inline>:9:5: policy_classes[0].quantum: expected a non-negative integer, found a string"
            + " (\"8\")", ConfigFixtures.rejection(ONE_CLASS + "    quantum: \"8\"\n").getMessage());
        assertEquals("<inline>:9:5: policy_classes[0].quantum: expected a non-negative integer, found a number"
            + " (1.5)", ConfigFixtures.rejection(ONE_CLASS + "    quantum: 1.5\n").getMessage());
        assertEquals("<inline>:10:5: policy_classes[0].prefill_busy_threshold_frac: expected a number, found a"
            + " string (\"high\")", ConfigFixtures.rejection(ONE_CLASS
            + "    quantum: 1\n    prefill_busy_threshold_frac: high\n").getMessage());
        assertEquals("<inline>:4:1: policy_classes: expected a sequence, found a mapping",
            ConfigFixtures.rejection("""
                default_policy_family: standard
                uncached_isl_buckets:
                  - {min_tokens: 0, bucket: all}
                policy_classes:
                  name: a
                """).getMessage());
        assertEquals("<inline>:2:1: uncached_isl_buckets: expected a sequence, found a string (\"all\")",
            ConfigFixtures.rejection("default_policy_family: a\nuncached_isl_buckets: all\npolicy_classes: []\n")
                .getMessage());
    }

    @Test
    void shouldRejectNumbersTooLargeForALong() {
        assertEquals("<inline>:9:5: policy_classes[0].quantum: integer 9223372036854775808 is too large; the maximum"
            + " is 9223372036854775807", ConfigFixtures.rejection(ONE_CLASS + "    quantum: 9223372036854775808\n")
            .getMessage());
    }

    @Test
    void shouldAcceptTheLargestLong() throws ConfigException {
        PolicyProfile root = ConfigFixtures.parse(ONE_CLASS + "    quantum: 9223372036854775807\n").root()
            .orElseThrow();

        assertEquals(Long.MAX_VALUE, root.classes().get(0).quantum());
    }

    @Test
    void shouldRejectNullForARequiredKey() {
        assertEquals("<inline>:9:5: policy_classes[0].quantum: missing value for required key \"quantum\"",
            ConfigFixtures.rejection(ONE_CLASS + "    quantum:\n").getMessage());
    }

    @Test
    void shouldTreatNullOptionalKeysAsAbsent() throws ConfigException {
        PolicyClassSpec spec = ConfigFixtures.parse(ONE_CLASS + "    quantum: 1\n    prefill_busy_threshold: ~\n")
            .root().orElseThrow().classes().get(0);

        assertTrue(spec.prefillBusyThreshold().isEmpty());
    }

    @Test
    void shouldRefuseAliasesInsteadOfExpandingThem() {
        assertEquals("<inline>:3:15: request_classifier.parameters: YAML aliases are not supported (found *p); write"
            + " the value out in full", ConfigFixtures.rejection("""
            request_classifier:
              type: test
              parameters: *p
            """).getMessage());
    }

    @Test
    void shouldRefuseBillionLaughsWithoutExpandingAnything() {
        StringBuilder yaml = new StringBuilder("request_classifier:\n  type: test\n  parameters:\n");
        yaml.append("    a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (char c = 'b'; c <= 'j'; c++) {
            char previous = (char) (c - 1);
            yaml.append("    ").append(c).append(": &").append(c).append(" [*").append(previous).append(", *")
                .append(previous).append(", *").append(previous).append("]\n");
        }

        ConfigException error = ConfigFixtures.rejection(yaml.toString());

        assertEquals("request_classifier.parameters.b[0]", error.keyPath());
        assertTrue(error.detail().startsWith("YAML aliases are not supported"), error.getMessage());
    }

    @Test
    void shouldRejectMoreThanOneDocument() {
        assertTrue(ConfigFixtures.rejection("request_classifier: {type: a}\n---\nrequest_classifier: {type: b}\n")
            .getMessage().contains("failed to parse router policy config <inline>: expected a single YAML document"));
    }

    @Test
    void shouldRejectDeepNesting() {
        String deep = "request_classifier: {type: test, parameters: " + "{a: ".repeat(40) + "1" + "}".repeat(40)
            + "}\n";

        ConfigException error = ConfigFixtures.rejection(deep);

        assertTrue(error.getMessage().contains("nesting") || error.getMessage().contains("depth"),
            error.getMessage());
    }

    @Test
    void shouldRejectOversizedDocument() {
        String huge = "request_classifier: {type: test}\n" + "#".repeat(YamlTreeReader.MAX_DOCUMENT_CHARS) + "\n";

        assertTrue(ConfigFixtures.rejection(huge).getMessage().startsWith(
            "failed to parse router policy config <inline>: document has "), "no position for a size refusal");
    }

    @Test
    void shouldTreatPlainScalarsAsStringsForNames() throws ConfigException {
        PolicyProfile root = ConfigFixtures.parse("""
            default_policy_family: yes
            uncached_isl_buckets:
              - min_tokens: 0
                bucket: 1
            policy_classes:
              - name: 2
                policy_family: yes
                cache_bucket: 1
                quantum: 1
            """).root().orElseThrow();

        assertEquals("yes", root.defaultPolicyFamily());
        assertEquals("2", root.classes().get(0).name());
    }
}
