package dev.sluice.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Document-level behaviour of {@link RouterPolicyLoader}: files, the seed's example, the top-level rules. */
class RouterPolicyLoaderTest {

    @Test
    void shouldLoadSeedAdmissionYamlUnchanged() throws ConfigException {
        RouterPolicyConfig config = ConfigFixtures.load("admission.yaml");

        PluginSection classifier = config.requestClassifier().orElseThrow();
        assertEquals("acme-queue-budget", classifier.type());
        assertEquals(2000, classifier.parameters().get("max_wait_ms").intValue());
        PolicyProfile root = config.root().orElseThrow();
        assertEquals("standard", root.defaultPolicyFamily());
        assertEquals(List.of(new CacheBucket(0, "all")), root.buckets());
        PolicyClassSpec only = root.classes().get(0);
        assertEquals("standard_all", only.name());
        assertEquals(QueuePolicy.FCFS, only.queuePolicy());
        assertEquals(1, only.quantum());
        assertEquals(OptionalDouble.of(1.0), only.prefillBusyThresholdFrac());
        assertTrue(config.models().isEmpty());
        assertTrue(config.workerSelection().isEmpty());
        assertEquals(ConfigFixtures.path("admission.yaml").toString(), config.source());
    }

    @Test
    void shouldPrefixFileErrorsWithThePathLineAndColumn() {
        Path file = ConfigFixtures.path("quantum-zero.yaml");

        ConfigException error = ConfigFixtures.fileRejection("quantum-zero.yaml");

        assertEquals(file + ":9:5: policy_classes[0].quantum: quantum must be greater than zero", error.getMessage());
        assertEquals(file.toString(), error.source());
        assertEquals("policy_classes[0].quantum", error.keyPath());
        assertEquals(9, error.line());
        assertEquals(5, error.column());
        assertEquals("quantum must be greater than zero", error.detail());
    }

    @Test
    void shouldRejectQuantumZeroWithLineAndPath() {
        String seed = """
            request_classifier:
              type: acme-queue-budget
              parameters:
                max_wait_ms: 2000
            default_policy_family: standard
            uncached_isl_buckets:
              - min_tokens: 0
                bucket: all
            policy_classes:
              - name: standard_all
                policy_family: standard
                cache_bucket: all
                queue_policy: fcfs
                quantum: 0
                prefill_busy_threshold_frac: 1.0
            """;

        assertEquals("admission.yaml:14:5: policy_classes[0].quantum: quantum must be greater than zero",
            ConfigFixtures.rejection(seed, "admission.yaml").getMessage());
    }

    @Test
    void shouldQuoteModelNamesInKeyPaths() {
        ConfigException error = ConfigFixtures.fileRejection("model-bucket-not-increasing.yaml");

        assertEquals("models.\"example/large-model\".uncached_isl_buckets[1].min_tokens", error.keyPath());
        assertEquals(7, error.line());
        assertEquals("uncached_isl_buckets min_tokens must be strictly increasing", error.detail());
    }

    @Test
    void shouldReportUnreadableFile(@TempDir Path dir) {
        Path missing = dir.resolve("missing.yaml");

        ConfigException error = assertThrows(ConfigException.class, () -> RouterPolicyLoader.load(missing));

        assertEquals("failed to read router policy config " + missing + ": no such file", error.getMessage());
        assertEquals(0, error.line());
    }

    @Test
    void shouldReportYamlSyntaxErrorsWithPosition() {
        Path file = ConfigFixtures.path("syntax-error.yaml");

        ConfigException error = ConfigFixtures.fileRejection("syntax-error.yaml");

        assertEquals(file + ":4:4: failed to parse router policy config " + file + ": expected <block end>, but"
            + " found '<block mapping start>' (while parsing a block collection)", error.getMessage());
        assertEquals("", error.keyPath());
    }

    @Test
    void shouldReportUnterminatedFlowSequenceAtEndOfInput() {
        assertEquals("<inline>:2:1: failed to parse router policy config <inline>: expected the node content, but"
            + " found '<stream end>' (while parsing a flow node)",
            ConfigFixtures.rejection("models: [\n").getMessage());
    }

    @Test
    void shouldReportDirectoryAsUnreadable(@TempDir Path dir) {
        ConfigException error = assertThrows(ConfigException.class, () -> RouterPolicyLoader.load(dir));

        assertTrue(error.getMessage().startsWith("failed to read router policy config " + dir + ": "),
            error.getMessage());
    }

    @Test
    void shouldRejectPartialRootProfile() {
        String expected = "root profile must specify default_policy_family, uncached_isl_buckets, and policy_classes"
            + " when any root profile field is present";
        assertEquals("<inline>:1:1: default_policy_family: " + expected,
            ConfigFixtures.rejection("default_policy_family: standard\n").getMessage());
        assertEquals("<inline>:1:1: uncached_isl_buckets: " + expected, ConfigFixtures.rejection("""
            uncached_isl_buckets:
              - {min_tokens: 0, bucket: all}
            policy_classes:
              - {name: a, policy_family: standard, cache_bucket: all, quantum: 1}
            """).getMessage());
        assertEquals("<inline>:2:1: policy_classes: " + expected, ConfigFixtures.rejection("""
            request_classifier: {type: test}
            policy_classes: []
            """).getMessage());
    }

    @Test
    void shouldRejectDocumentThatDefinesNothing() {
        String expected = "<inline>:1:1: router policy config must define a root profile, at least one model profile,"
            + " worker_selection, or request_classifier";
        assertEquals(expected, ConfigFixtures.rejection("").getMessage());
        assertEquals(expected, ConfigFixtures.rejection("models: {}\n").getMessage());
        assertTrue(ConfigFixtures.rejection("# only a comment\n").getMessage().endsWith(
            "router policy config must define a root profile, at least one model profile, worker_selection, or"
                + " request_classifier"));
    }

    @Test
    void shouldRejectEmptyModelName() {
        assertEquals("<inline>:2:3: models.\"\": model profile name must not be empty", ConfigFixtures.rejection("""
            models:
              "":
                default_policy_family: standard
            """).getMessage());
    }

    @Test
    void shouldRequireAllThreeKeysInAModelProfile() {
        assertEquals("<inline>:3:5: models.m: missing required key \"uncached_isl_buckets\"",
            ConfigFixtures.rejection("""
                models:
                  m:
                    default_policy_family: standard
                    policy_classes: []
                """).getMessage());
    }

    @Test
    void shouldRejectNonMappingDocument() {
        assertEquals("<inline>:1:1: expected a mapping, found a sequence",
            ConfigFixtures.rejection("- default_policy_family\n").getMessage());
    }
}
