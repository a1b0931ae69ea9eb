package dev.sluice.core.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * The plugin-owned {@code parameters} mapping of a YAML plugin section. Bind it to the plugin's own record with
 * {@link #bind(Class)}, which rejects unknown fields.
 */
public final class RequestClassifierParameters {
    private static final ObjectMapper STRICT = JsonMapper.builder()
        .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
        .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
        .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
        .build();

    private final ObjectNode values;

    public RequestClassifierParameters(ObjectNode values) {
        this.values = Objects.requireNonNull(values, "values").deepCopy();
    }

    /** No parameters (the YAML section had none). */
    public static RequestClassifierParameters empty() {
        return new RequestClassifierParameters(JsonNodeFactory.instance.objectNode());
    }

    /** The raw mapping (a copy). */
    public ObjectNode asNode() {
        return values.deepCopy();
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
        try {
            return STRICT.treeToValue(values, type);
        } catch (UnrecognizedPropertyException e) {
            throw new ProviderException("unknown parameter \"" + e.getPropertyName() + "\"; known parameters: "
                + e.getKnownPropertyIds(), e);
        } catch (JsonProcessingException e) {
            throw new ProviderException(e.getOriginalMessage(), e);
        }
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
