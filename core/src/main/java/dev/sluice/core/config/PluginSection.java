package dev.sluice.core.config;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * A {@code {type, parameters}} plugin section of the policy file, such as {@code request_classifier}. The type is
 * validated ({@code [A-Za-z0-9_.-]+}, not {@code default}); the parameters belong to the plugin. A section read from
 * a file knows where it was written, so that the problems found when it is resolved (an unknown type, parameters the
 * provider refuses) carry the file, line, column and key path as every other error of the file does.
 *
 * @param type       the registered plugin type.
 * @param parameters the plugin's parameters (an empty mapping when the YAML gave none).
 * @param position   where the section was written, or {@code null} for a section built in code.
 */
public record PluginSection(String type, ObjectNode parameters, Position position) {
    public PluginSection {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(parameters, "parameters");
    }

    /** A section built in code, with no position. */
    public PluginSection(String type, ObjectNode parameters) {
        this(type, parameters, null);
    }

    /**
     * Where a section sits in its file.
     *
     * @param type       the {@code type} value (positioned at its key).
     * @param parameters the {@code parameters} value (positioned at its key), or {@code null} when there is none.
     */
    public record Position(YamlValue type, YamlValue parameters) {
        public Position {
            Objects.requireNonNull(type, "type");
        }
    }

    /**
     * {@code detail} as an error of the {@code type} key, such as
     * {@code admission.yaml:2:3: request_classifier.type: unknown request-classifier type "x"; ...}; unchanged for a
     * section without a position.
     */
    public String atType(String detail) {
        return position == null ? detail : position.type().error(detail).getMessage();
    }

    /**
     * {@code detail} as an error of the {@code parameters} key (of the {@code type} key when the section has no
     * parameters); unchanged for a section without a position.
     */
    public String atParameters(String detail) {
        if (position == null) {
            return detail;
        }
        YamlValue at = position.parameters() != null ? position.parameters() : position.type();
        return at.error(detail).getMessage();
    }
}
