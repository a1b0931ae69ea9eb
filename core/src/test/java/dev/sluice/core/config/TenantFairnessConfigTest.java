package dev.sluice.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code tenant_fairness} and its {@code vtc} section: defaults, values, and errors at their line and column. */
class TenantFairnessConfigTest {
    private static final String HEAD = """
        default_policy_family: standard
        uncached_isl_buckets:
          - min_tokens: 0
            bucket: all
        policy_classes:
          - name: shared
            policy_family: standard
            cache_bucket: all
            quantum: 100
        """;

    private static TenantFairness fairnessOf(String yaml) throws ConfigException {
        return ConfigFixtures.parse(yaml).root().orElseThrow().classes().get(0).tenantFairness();
    }

    @Test
    void shouldDefaultToNoFairnessSoDynamoFilesBehaveAsBefore() throws ConfigException {
        assertEquals(TenantFairness.NONE, fairnessOf(HEAD));
    }

    @Test
    void shouldReadVtcWithDefaultWeights() throws ConfigException {
        TenantFairness f = fairnessOf(HEAD + "    tenant_fairness: vtc\n");
        assertEquals(TenantFairness.vtc(), f);
        assertEquals(1.0, f.promptWeight());
        assertEquals(0.1, f.cachedWeight());
        assertEquals(2.0, f.outputWeight());
        assertEquals(1024, f.maxTenants());
    }

    @Test
    void shouldReadVtcWeightsAndTenantWeights() throws ConfigException {
        TenantFairness f = fairnessOf(HEAD + """
                tenant_fairness: vtc
                vtc:
                  prompt_weight: 1
                  cached_weight: 0.25
                  output_weight: 4
                  max_tenants: 64
                  tenant_weights:
                    gold: 3
                    batch: 0.5
            """);
        assertEquals(new TenantFairness(TenantFairness.Mode.VTC, 1, 0.25, 4, 64,
            Map.of("gold", 3.0, "batch", 0.5)), f);
        assertEquals(3.0, f.weightOf("gold"));
        assertEquals(1.0, f.weightOf("other"));
    }

    @Test
    void shouldReadPreemptOverServedOffByDefaultAndOnWhenSet() throws ConfigException {
        assertEquals(false, fairnessOf(HEAD + "    tenant_fairness: vtc\n").preemptsOverServed());
        TenantFairness on = fairnessOf(HEAD + "    tenant_fairness: vtc\n    vtc:\n      preempt_over_served: true\n");
        assertEquals(TenantFairness.vtc().withPreemptOverServed(true), on);
        assertEquals(true, on.preemptsOverServed());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void shouldRejectBadFairnessWithLineAndKey(String rule, String yaml, String message) {
        assertEquals(message, ConfigFixtures.rejection(HEAD + yaml).getMessage());
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
            Arguments.of("unknown mode", "    tenant_fairness: drr\n",
                "<inline>:10:5: policy_classes[0].tenant_fairness: tenant_fairness must be none or vtc, found"
                    + " \"drr\""),
            Arguments.of("vtc section without vtc", "    vtc:\n      prompt_weight: 1\n",
                "<inline>:10:5: policy_classes[0].vtc: vtc settings need tenant_fairness: vtc"),
            Arguments.of("unknown vtc key", "    tenant_fairness: vtc\n    vtc:\n      input_weight: 1\n",
                "<inline>:12:7: policy_classes[0].vtc.input_weight: unknown key \"input_weight\"; allowed keys:"
                    + " prompt_weight, cached_weight, output_weight, max_tenants, tenant_weights, preempt_over_served"),
            Arguments.of("preempt_over_served not a boolean",
                "    tenant_fairness: vtc\n    vtc:\n      preempt_over_served: sometimes\n",
                "<inline>:12:7: policy_classes[0].vtc.preempt_over_served: expected true or false, found"
                    + " a string (\"sometimes\")"),
            Arguments.of("negative weight", "    tenant_fairness: vtc\n    vtc:\n      output_weight: -1\n",
                "<inline>:12:7: policy_classes[0].vtc.output_weight: output_weight must be finite and"
                    + " non-negative, was -1.0"),
            Arguments.of("zero max tenants", "    tenant_fairness: vtc\n    vtc:\n      max_tenants: 0\n",
                "<inline>:12:7: policy_classes[0].vtc.max_tenants: max_tenants must be between 1 and 1000000,"
                    + " was 0"),
            Arguments.of("zero tenant weight",
                "    tenant_fairness: vtc\n    vtc:\n      tenant_weights:\n        acme: 0\n",
                "<inline>:13:9: policy_classes[0].vtc.tenant_weights.acme: tenant weight must be finite and"
                    + " greater than zero, was 0.0"));
    }
}
