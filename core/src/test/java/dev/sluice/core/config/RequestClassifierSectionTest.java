package dev.sluice.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** The {@code request_classifier} section: dynamo.md §3.3 and §9 items 24–25. */
class RequestClassifierSectionTest {

    @Test
    void shouldKeepTypeAndParameterMappingWhenOnlyAClassifierIsConfigured() throws ConfigException {
        RouterPolicyConfig config = ConfigFixtures.parse("""
            request_classifier:
              type: thunderagent
              parameters:
                pause_threshold: 0.9
            """);

        PluginSection classifier = config.requestClassifier().orElseThrow();
        assertEquals("thunderagent", classifier.type());
        assertEquals(0.9, classifier.parameters().get("pause_threshold").doubleValue());
        assertTrue(config.root().isEmpty());
        assertTrue(config.profileFor("any", OptionalDouble.empty(), QueuePolicy.FCFS).isSynthetic(),
            "the queue profile falls back to the synthetic one");
    }

    @Test
    void shouldPreserveParameterTypesAndOrder() throws ConfigException {
        PluginSection classifier = ConfigFixtures.parse("""
            request_classifier:
              type: test
              parameters:
                limit: 4
                big: 12345678901
                ratio: 0.5
                enabled: true
                label: "007"
                none: ~
                nested: {list: [1, two]}
            """).requestClassifier().orElseThrow();

        JsonNode parameters = classifier.parameters();
        assertTrue(parameters.get("limit").isInt());
        assertTrue(parameters.get("big").isLong());
        assertTrue(parameters.get("ratio").isDouble());
        assertTrue(parameters.get("enabled").isBoolean());
        assertEquals("007", parameters.get("label").textValue());
        assertTrue(parameters.get("none").isNull());
        assertEquals("{\"limit\":4,\"big\":12345678901,\"ratio\":0.5,\"enabled\":true,\"label\":\"007\","
            + "\"none\":null,\"nested\":{\"list\":[1,\"two\"]}}", parameters.toString());
    }

    @Test
    void shouldDefaultParametersToAnEmptyMapping() throws ConfigException {
        PluginSection classifier = ConfigFixtures.parse("request_classifier: {type: test}\n")
            .requestClassifier().orElseThrow();

        assertTrue(classifier.parameters().isObject());
        assertEquals(0, classifier.parameters().size());
    }

    @Test
    void shouldRejectReservedDefaultTypeWithHint() {
        assertEquals("<inline>:2:3: request_classifier.type: request_classifier type 'default' is reserved; omit"
            + " request_classifier to use Dynamo's pass-through classifier", ConfigFixtures.rejection("""
            request_classifier:
              type: default
            """).getMessage());
    }

    @Test
    void shouldRejectParametersThatAreNotAMapping() {
        assertEquals("<inline>:3:3: request_classifier.parameters: request_classifier parameters must be a YAML"
            + " mapping, found an integer (1)", ConfigFixtures.rejection("""
            request_classifier:
              type: test
              parameters: 1
            """).getMessage());
        assertTrue(ConfigFixtures.rejection("request_classifier: {type: test, parameters: [a]}\n").getMessage()
            .endsWith("request_classifier parameters must be a YAML mapping, found a sequence"));
        assertTrue(ConfigFixtures.rejection("request_classifier: {type: test, parameters: ~}\n").getMessage()
            .endsWith("request_classifier parameters must be a YAML mapping, found null"));
    }

    @Test
    void shouldRejectTypeThatIsNotAnIdentifier() {
        assertEquals("<inline>:2:3: request_classifier.type: request_classifier classifier type name \"\" must match"
            + " [A-Za-z0-9_.-]+", ConfigFixtures.rejection("""
            request_classifier:
              type: ""
            """).getMessage());
        assertTrue(ConfigFixtures.rejection("request_classifier: {type: acme/budget}\n").getMessage()
            .endsWith("request_classifier classifier type name \"acme/budget\" must match [A-Za-z0-9_.-]+"));
    }

    @Test
    void shouldRequireTypeAndRejectUnknownKeys() {
        assertEquals("<inline>:2:3: request_classifier: missing required key \"type\"", ConfigFixtures.rejection("""
            request_classifier:
              parameters: {}
            """).getMessage());
        assertEquals("<inline>:3:3: request_classifier.params: unknown key \"params\"; allowed keys: type, parameters",
            ConfigFixtures.rejection("""
                request_classifier:
                  type: test
                  params: {}
                """).getMessage());
    }
}
