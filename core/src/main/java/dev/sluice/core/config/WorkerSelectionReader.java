package dev.sluice.core.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the {@code worker_selection} section (dynamo.md §4.1, §9 item 30): roles {@code aggregated},
 * {@code prefill}, {@code decode} and {@code encode}, each naming an instance or {@code default} (the built-in
 * selector), and {@code instances: [{name, type, parameters}]}. Stateless.
 */
final class WorkerSelectionReader {
    static final List<String> ROLES = List.of("aggregated", "prefill", "decode", "encode");
    private static final List<String> KEYS = List.of("aggregated", "prefill", "decode", "encode", "instances");
    private static final List<String> INSTANCE_KEYS = List.of("name", "type", "parameters");
    private static final String BUILT_IN = "default";

    private WorkerSelectionReader() {
    }

    static WorkerSelectionConfig read(YamlValue section) throws ConfigException {
        YamlMap map = section.map().allowOnly(KEYS);
        List<WorkerSelectionConfig.Instance> instances = new ArrayList<>();
        YamlValue instancesValue = map.get("instances");
        if (instancesValue != null) {
            for (YamlValue item : instancesValue.list()) {
                WorkerSelectionConfig.Instance instance = instance(item);
                for (WorkerSelectionConfig.Instance earlier : instances) {
                    if (earlier.name().equals(instance.name())) {
                        throw item.error("worker_selection contains duplicate instance "
                            + KeyPath.quote(instance.name()));
                    }
                }
                instances.add(instance);
            }
        }
        Map<String, String> roles = new LinkedHashMap<>();
        for (String role : ROLES) {
            YamlValue value = map.get(role);
            if (value == null) {
                continue;
            }
            String selected = value.string();
            if (!selected.equals(BUILT_IN) && instances.stream().noneMatch(i -> i.name().equals(selected))) {
                throw value.error("worker_selection " + role + " " + KeyPath.quote(selected)
                    + " does not name a configured instance");
            }
            roles.put(role, selected);
        }
        if (roles.isEmpty() && instances.isEmpty()) {
            throw section.error("worker_selection must define an instance or an aggregated, prefill, decode, or"
                + " encode selection");
        }
        return new WorkerSelectionConfig(roles, instances);
    }

    private static WorkerSelectionConfig.Instance instance(YamlValue item) throws ConfigException {
        YamlMap map = item.map().allowOnly(INSTANCE_KEYS);
        YamlValue nameValue = map.require("name");
        String name = nameValue.identifier("worker_selection instance");
        if (name.equals(BUILT_IN)) {
            throw nameValue.error("worker_selection instance name 'default' is reserved for Dynamo's built-in"
                + " selector");
        }
        YamlValue typeValue = map.require("type");
        String type = typeValue.identifier("worker_selection policy type");
        PluginSection plugin = new PluginSection(type, PluginSectionReader.parameters(map,
            "worker_selection instance " + KeyPath.quote(name) + " parameters must be a YAML mapping"),
            new PluginSection.Position(typeValue, map.raw("parameters")));
        return new WorkerSelectionConfig.Instance(name, plugin);
    }
}
