package dev.sluice.core.config;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * A {@code {type, parameters}} plugin section of the policy file, such as {@code request_classifier}. The type is
 * validated ({@code [A-Za-z0-9_.-]+}, not {@code default}); the parameters belong to the plugin.
 *
 * @param type       the registered plugin type.
 * @param parameters the plugin's parameters (an empty mapping when the YAML gave none).
 */
public record PluginSection(String type, ObjectNode parameters) {
    public PluginSection {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(parameters, "parameters");
    }
}
