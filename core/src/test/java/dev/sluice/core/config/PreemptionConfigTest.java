package dev.sluice.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The per-class preemption keys: defaults, values, and each invalid value's file:line:col message. */
class PreemptionConfigTest {
    private static final String HEAD = """
        default_policy_family: bulk
        uncached_isl_buckets: [{min_tokens: 0, bucket: all}]
        policy_classes:
          - name: interactive
            policy_family: interactive
            cache_bucket: all
            quantum: 1
        """;

    private static List<PolicyClassSpec> classes(String yaml) throws ConfigException {
        return ConfigFixtures.parse(yaml).root().orElseThrow().classes();
    }

    @Test
    void shouldDefaultToNotPreemptibleAtPriorityZero() throws ConfigException {
        List<PolicyClassSpec> classes = classes(HEAD + """
              - {name: bulk, policy_family: bulk, cache_bucket: all, quantum: 1}
            """);
        assertEquals(ClassPreemption.NONE, classes.get(0).preemption());
        assertEquals(ClassPreemption.NONE, classes.get(1).preemption());
    }

    @Test
    void shouldReadPreemptibleAndPriority() throws ConfigException {
        List<PolicyClassSpec> classes = classes(HEAD + """
                preemption_priority: 10
              - {name: bulk, policy_family: bulk, cache_bucket: all, quantum: 1, preemptible: true}
            """);
        assertEquals(new ClassPreemption(false, 10), classes.get(0).preemption());
        assertEquals(new ClassPreemption(true, 0), classes.get(1).preemption());
        ClassPreemption high = classes.get(0).preemption();
        ClassPreemption low = classes.get(1).preemption();
        assertTrue(high.outranks(0, low, 0));
        assertFalse(low.outranks(0, high, 0), "interactive is not preemptible");
        assertFalse(low.outranks(0, low, 0), "an equal request does not outrank its peer");
        assertTrue(low.outranks(1, low, 0), "a strict priority outranks within its class");
    }

    @Test
    void shouldDescribeTheKeysOnlyWhereSet() throws ConfigException {
        String text = ProfileDescriber.describe(ConfigFixtures.parse(HEAD + """
                preemption_priority: 10
              - {name: bulk, policy_family: bulk, cache_bucket: all, quantum: 1, preemptible: true}
            """));
        assertTrue(text.contains("; not preemptible, preemption priority 10"), text);
        assertTrue(text.contains("; preemptible, preemption priority 0"), text);
    }

    @Test
    void shouldRejectANonBooleanPreemptible() {
        assertEquals("<inline>:8:5: policy_classes[0].preemptible: expected true or false, found a string"
                + " (\"often\")",
            ConfigFixtures.rejection(HEAD + "    preemptible: often\n"
                + "  - {name: bulk, policy_family: bulk, cache_bucket: all, quantum: 1}\n").getMessage());
    }

    @Test
    void shouldRejectANegativePriority() {
        assertEquals("<inline>:8:5: policy_classes[0].preemption_priority: expected a non-negative integer,"
                + " found -1",
            ConfigFixtures.rejection(HEAD + "    preemption_priority: -1\n"
                + "  - {name: bulk, policy_family: bulk, cache_bucket: all, quantum: 1}\n").getMessage());
    }
}
