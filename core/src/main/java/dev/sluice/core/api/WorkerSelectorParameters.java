package dev.sluice.core.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The plugin-owned {@code parameters} mapping of a {@code worker_selection} instance. Bind it to the plugin's own
 * record with {@link #bind(Class)}, which rejects unknown fields exactly as classifier parameters do.
 */
public final class WorkerSelectorParameters {
    // Same strict binding and messages as the classifier's parameters; only the name differs.
    private final RequestClassifierParameters values;

    public WorkerSelectorParameters(ObjectNode values) {
        this.values = new RequestClassifierParameters(values);
    }

    /** No parameters (the instance had none). */
    public static WorkerSelectorParameters empty() {
        return new WorkerSelectorParameters(JsonNodeFactory.instance.objectNode());
    }

    /** The raw mapping (a copy). */
    public ObjectNode asNode() {
        return values.asNode();
    }

    /** True when the mapping has no keys. */
    public boolean isEmpty() {
        return values.isEmpty();
    }

    /**
     * Binds the mapping to {@code type} (a record or bean); unknown fields, wrong types and missing primitives are
     * errors whose message names the field.
     */
    public <T> T bind(Class<T> type) throws ProviderException {
        return values.bind(type);
    }

    /** The value at {@code key}, or {@code null}. */
    public JsonNode get(String key) {
        return values.get(key);
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
