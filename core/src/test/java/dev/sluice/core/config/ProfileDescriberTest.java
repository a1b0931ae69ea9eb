package dev.sluice.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** The text {@code sluice config check FILE} will print: exact and deterministic. */
class ProfileDescriberTest {

    @Test
    void shouldDescribeSeedAdmissionFile() throws ConfigException, IOException {
        String yaml = Files.readString(ConfigFixtures.path("admission.yaml"), StandardCharsets.UTF_8);
        RouterPolicyConfig config = RouterPolicyLoader.parse(yaml, "admission.yaml");

        assertEquals("""
            router policy config admission.yaml
            request_classifier: acme-queue-budget, parameters {"max_wait_ms":2000}
            worker_selection: not configured (built-in)

            root profile
              default policy family: standard
              cache buckets (uncached input tokens):
                all: 0 or more
              policy families: standard
              policy classes (DRR ring order):
                1. standard_all: family standard, bucket all; fcfs, quantum 1; busy above 1.0 x \
            max_num_batched_tokens; no queue limits
              class per family and bucket:
                standard / all -> standard_all
              explicit classes (by name, bypassing buckets): none

            fallback profile (synthetic): not used; models without a profile use the root profile
            """, ProfileDescriber.describe(config));
    }

    @Test
    void shouldDescribeModelProfileWithFloorsFamiliesRingOrderAndLanding() throws ConfigException {
        RouterPolicyConfig config = ConfigFixtures.load("policy-class-queues.yaml");

        String model = ProfileDescriber.describeProfile("model", config.models().get("example/large-model"));

        assertEquals("""
            model
              default policy family: latency
              cache buckets (uncached input tokens):
                cached: 0 to 8191
                uncached: 8192 or more
              policy families: latency, batch
              policy classes (DRR ring order):
                1. latency_cached: family latency, bucket cached; fcfs, quantum 2048; busy above 4.0 x \
            max_num_batched_tokens; no queue limits
                2. latency_uncached: family latency, bucket uncached; fcfs, quantum 1024; busy above 4.0 x \
            max_num_batched_tokens; no queue limits
                3. batch_cached: family batch, bucket cached; wspt, quantum 1024; busy above 2.0 x \
            max_num_batched_tokens; no queue limits
                4. batch_uncached: family batch, bucket uncached; wspt, quantum 512; busy above 2.0 x \
            max_num_batched_tokens; no queue limits
              class per family and bucket:
                latency / cached -> latency_cached
                latency / uncached -> latency_uncached
                batch / cached -> batch_cached
                batch / uncached -> batch_uncached
              explicit classes (by name, bypassing buckets): none
            """, model);
    }

    @Test
    void shouldDescribeRootExplicitClassThresholdsAndLimits() throws ConfigException {
        String text = ProfileDescriber.describe(ConfigFixtures.load("policy-class-queues.yaml"));

        assertTrue(text.contains("""
                5. custom_priority: explicit; fcfs, quantum 8192; busy above 65536 active prefill tokens; \
            cached_token_queue_limit_per_worker 0 (refuses instead of queueing)
            """), text);
        assertTrue(text.contains("    uncached: 3072 or more\n"), text);
        assertTrue(text.contains("  explicit classes (by name, bypassing buckets): custom_priority\n"), text);
        assertTrue(text.indexOf("root profile") < text.indexOf("model \"example/large-model\" profile"), text);
    }

    @Test
    void shouldDescribeSyntheticFallbackFromCommandLineValues() throws ConfigException {
        RouterPolicyConfig config = ConfigFixtures.parse("""
            worker_selection:
              decode: default
              aggregated: picker
              instances:
                - {name: picker, type: cache-aware, parameters: {weight: 1}}
            """);

        assertEquals("""
            router policy config <inline>
            request_classifier: not configured (pass-through)
            worker_selection: aggregated -> picker; decode -> default; instance picker = cache-aware, parameters \
            {"weight":1}

            fallback profile (synthetic, for models without a profile)
              policy classes (DRR ring order):
                1. default: explicit; wspt, quantum 1; busy above 7.0 x max_num_batched_tokens; no queue limits
              every request lands in default
            """, ProfileDescriber.describe(config, OptionalDouble.of(7.0), QueuePolicy.WSPT));
        assertTrue(ProfileDescriber.describe(config).contains(
            "1. default: explicit; fcfs, quantum 1; queueing disabled (no busy threshold); no queue limits"));
    }

    @Test
    void shouldDescribeTheSameConfigIdentically() throws ConfigException {
        assertEquals(ProfileDescriber.describe(ConfigFixtures.load("policy-class-queues.yaml")),
            ProfileDescriber.describe(ConfigFixtures.load("policy-class-queues.yaml")));
    }
}
