package dev.sluice.core.config;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * Reads the {@code request_classifier} section (dynamo.md §3.3): {@code type} (required identifier, not
 * {@code default}) and {@code parameters} (optional mapping, default empty), and converts plugin parameters for
 * {@code worker_selection} instances too. Stateless.
 */
final class PluginSectionReader {
    private static final List<String> KEYS = List.of("type", "parameters");

    private PluginSectionReader() {
    }

    /** The {@code request_classifier} section. */
    static PluginSection requestClassifier(YamlValue section) throws ConfigException {
        YamlMap map = section.map().allowOnly(KEYS);
        YamlValue typeValue = map.require("type");
        String type = typeValue.string();
        if (!YamlValue.isIdentifier(type)) {
            throw typeValue.error("request_classifier classifier type name " + KeyPath.quote(type)
                + " must match [A-Za-z0-9_.-]+");
        }
        if (type.equals("default")) {
            throw typeValue.error("request_classifier type 'default' is reserved; omit request_classifier to use"
                + " Dynamo's pass-through classifier");
        }
        return new PluginSection(type, parameters(map, "request_classifier parameters must be a YAML mapping"),
            new PluginSection.Position(typeValue, map.raw("parameters")));
    }

    /**
     * The {@code parameters} of {@code map} as an object node: empty when the key is absent, else it must be a
     * mapping (an explicit null is not one), or the error says {@code notMapping}.
     */
    static ObjectNode parameters(YamlMap map, String notMapping) throws ConfigException {
        YamlValue value = map.raw("parameters");
        if (value == null) {
            return JsonNodeFactory.instance.objectNode();
        }
        if (!(value.node() instanceof YamlNode.Mapping mapping)) {
            throw value.error(notMapping + ", found " + value.node().describe());
        }
        return YamlJson.object(mapping);
    }
}
