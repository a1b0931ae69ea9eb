package dev.sluice.core.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;

/**
 * Converts plugin-owned YAML ({@code parameters}) to Jackson trees, keeping the YAML types: integers stay integral
 * ({@code int}, {@code long} or big), other numbers become doubles, {@code true}/{@code false} booleans, {@code ~}
 * null, everything else text. Key order is document order. Stateless.
 */
final class YamlJson {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private YamlJson() {
    }

    /** A new object node holding {@code mapping}. */
    static ObjectNode object(YamlNode.Mapping mapping) {
        ObjectNode object = NODES.objectNode();
        for (YamlNode.Entry entry : mapping.entries()) {
            object.set(entry.key(), node(entry.value()));
        }
        return object;
    }

    private static JsonNode node(YamlNode value) {
        return switch (value) {
            case YamlNode.Mapping mapping -> object(mapping);
            case YamlNode.Sequence sequence -> array(sequence);
            case YamlNode.Scalar scalar -> scalar(scalar);
        };
    }

    private static ArrayNode array(YamlNode.Sequence sequence) {
        ArrayNode array = NODES.arrayNode(sequence.items().size());
        for (YamlNode item : sequence.items()) {
            array.add(node(item));
        }
        return array;
    }

    private static JsonNode scalar(YamlNode.Scalar scalar) {
        return switch (scalar.token()) {
            case VALUE_NULL -> NODES.nullNode();
            case VALUE_TRUE -> NODES.booleanNode(true);
            case VALUE_FALSE -> NODES.booleanNode(false);
            case VALUE_NUMBER_INT -> integer(scalar.number());
            case VALUE_NUMBER_FLOAT -> NODES.numberNode(scalar.number().doubleValue());
            default -> NODES.textNode(scalar.text());
        };
    }

    private static JsonNode integer(Number number) {
        if (number instanceof BigInteger big) {
            return NODES.numberNode(big);
        }
        if (number instanceof Long wide) {
            return NODES.numberNode(wide.longValue());
        }
        return NODES.numberNode(number.intValue());
    }
}
