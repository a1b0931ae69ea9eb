package dev.sluice.transport.openai;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** JSON as plain Java data for a template: objects as ordered maps, arrays as lists, integers as {@code Long}. */
final class PlainJson {
    private PlainJson() {
    }

    static Object of(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        if (node.isObject()) {
            Map<String, Object> map = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                map.put(field.getKey(), of(field.getValue()));
            }
            return map;
        }
        if (node.isArray()) {
            List<Object> list = new ArrayList<>(node.size());
            for (JsonNode item : node) {
                list.add(of(item));
            }
            return list;
        }
        if (node.isIntegralNumber()) {
            return node.canConvertToLong() ? (Object) node.asLong() : node.bigIntegerValue();
        }
        if (node.isNumber()) {
            return node.asDouble();
        }
        if (node.isBoolean()) {
            return node.asBoolean();
        }
        return node.asText();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(JsonNode node) {
        return (Map<String, Object>) of(node);
    }
}
