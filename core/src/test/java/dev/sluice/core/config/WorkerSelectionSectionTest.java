package dev.sluice.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.OptionalDouble;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The {@code worker_selection} section: dynamo-tests.md §3.1 tests 1–3, dynamo.md §9 item 30. */
class WorkerSelectionSectionTest {

    @Test
    void shouldKeepParameterMappingWhenOnlyWorkerSelectionIsConfigured() throws ConfigException {
        RouterPolicyConfig config = ConfigFixtures.parse("""
            worker_selection:
              aggregated: example
              instances:
                - name: example
                  type: example-policy
                  parameters:
                    score_weight: 1.0
            """);

        WorkerSelectionConfig selection = config.workerSelection().orElseThrow();
        assertEquals(Map.of("aggregated", "example"), selection.roles());
        WorkerSelectionConfig.Instance instance = selection.instances().get(0);
        assertEquals("example", instance.name());
        assertEquals("example-policy", instance.plugin().type());
        assertEquals(1.0, instance.plugin().parameters().get("score_weight").doubleValue());
        PolicyProfile fallback = config.profileFor(null, OptionalDouble.of(2.0), QueuePolicy.WSPT);
        assertTrue(fallback.isSynthetic());
        assertEquals(QueuePolicy.WSPT, fallback.classes().get(0).queuePolicy());
    }

    @Test
    void shouldAcceptEveryWorkerRole() throws ConfigException {
        WorkerSelectionConfig selection = ConfigFixtures.parse("""
            worker_selection:
              prefill: prefill-policy
              decode: default
              encode: encode-policy
              instances:
                - name: prefill-policy
                  type: cache-aware
                  parameters: {}
                - name: encode-policy
                  type: media-aware
            """).workerSelection().orElseThrow();

        assertEquals(Map.of("prefill", "prefill-policy", "decode", "default", "encode", "encode-policy"),
            selection.roles());
        assertEquals(0, selection.instances().get(1).plugin().parameters().size());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidSelections")
    void shouldRejectInvalidWorkerSelection(String rule, String yaml, String message) {
        assertEquals(message, ConfigFixtures.rejection(yaml).getMessage());
    }

    static Stream<Arguments> invalidSelections() {
        String present = """
              instances:
                - name: present
                  type: alpha
            """;
        return Stream.of(
            Arguments.of("empty", "worker_selection: {}\n", "<inline>:1:1: worker_selection: worker_selection must"
                + " define an instance or an aggregated, prefill, decode, or encode selection"),
            Arguments.of("unknown aggregated", "worker_selection:\n  aggregated: missing\n" + present,
                "<inline>:2:3: worker_selection.aggregated: worker_selection aggregated \"missing\" does not name a"
                    + " configured instance"),
            Arguments.of("unknown prefill", "worker_selection:\n  prefill: missing\n" + present,
                "<inline>:2:3: worker_selection.prefill: worker_selection prefill \"missing\" does not name a"
                    + " configured instance"),
            Arguments.of("unknown decode", "worker_selection:\n  decode: missing\n" + present,
                "<inline>:2:3: worker_selection.decode: worker_selection decode \"missing\" does not name a"
                    + " configured instance"),
            Arguments.of("unknown encode", "worker_selection:\n  encode: missing\n" + present,
                "<inline>:2:3: worker_selection.encode: worker_selection encode \"missing\" does not name a"
                    + " configured instance"),
            Arguments.of("key default", "worker_selection:\n  default: present\n" + present,
                "<inline>:2:3: worker_selection.default: unknown key \"default\"; allowed keys: aggregated, prefill,"
                    + " decode, encode, instances"),
            Arguments.of("instance named default", """
                worker_selection:
                  instances:
                    - name: default
                      type: alpha
                """, "<inline>:3:7: worker_selection.instances[0].name: worker_selection instance name 'default' is"
                + " reserved for Dynamo's built-in selector"),
            Arguments.of("parameters not a mapping", """
                worker_selection:
                  instances:
                    - name: alpha
                      type: alpha
                      parameters: 1
                """, "<inline>:5:7: worker_selection.instances[0].parameters: worker_selection instance \"alpha\""
                + " parameters must be a YAML mapping, found an integer (1)"),
            Arguments.of("duplicate instance", """
                worker_selection:
                  instances:
                    - {name: alpha, type: alpha}
                    - {name: alpha, type: beta}
                """, "<inline>:4:7: worker_selection.instances[1]: worker_selection contains duplicate instance"
                + " \"alpha\""),
            Arguments.of("instance without type", """
                worker_selection:
                  instances:
                    - name: alpha
                """, "<inline>:3:7: worker_selection.instances[0]: missing required key \"type\""));
    }
}
