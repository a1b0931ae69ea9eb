package dev.sluice.core.config;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The {@code worker_selection} section: which selector instance serves each role, and the instances.
 *
 * @param roles     role ({@code aggregated}, {@code prefill}, {@code decode}, {@code encode}) to instance name or
 *                  {@code default}.
 * @param instances the named instances, each a plugin type with its parameters.
 */
public record WorkerSelectionConfig(Map<String, String> roles, List<Instance> instances) {
    public WorkerSelectionConfig {
        roles = Map.copyOf(roles);
        instances = List.copyOf(instances);
    }

    /** The instance name (or {@code default}) selected for {@code role}, or {@code null} when the role is unset. */
    public String instanceFor(String role) {
        return roles.get(role);
    }

    /** The instance called {@code name}, or {@code null}. */
    public Instance instance(String name) {
        for (Instance instance : instances) {
            if (instance.name().equals(name)) {
                return instance;
            }
        }
        return null;
    }

    /** One named selector instance. */
    public record Instance(String name, PluginSection plugin) {
        public Instance {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(plugin, "plugin");
        }
    }
}
