package dev.sluice.transport.engine.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What an engine's {@code GET /v1/models} said: the ids of the models it serves, or why that could not be learnt.
 * Immutable.
 *
 * @param ids     the models' ids, in the engine's order (empty when {@code failure} is set).
 * @param failure why the list could not be read (unreachable, an HTTP error, not an OpenAI model list), or
 *                {@code null}.
 */
public record ModelListing(List<String> ids, String failure) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public ModelListing {
        ids = List.copyOf(ids);
    }

    /** The listing could not be read, for this reason. */
    public static ModelListing failed(String failure) {
        return new ModelListing(List.of(), Objects.requireNonNull(failure, "failure"));
    }

    /** Reads an OpenAI model list, {@code {"object": "list", "data": [{"id": ...}, ...]}}. */
    public static ModelListing parse(byte[] body) {
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (IOException e) {
            return failed("GET /v1/models did not answer JSON");
        }
        JsonNode data = root == null ? null : root.get("data");
        if (data == null || !data.isArray()) {
            return failed("GET /v1/models did not answer an OpenAI model list (no \"data\" array)");
        }
        List<String> ids = new ArrayList<>();
        for (JsonNode model : data) {
            JsonNode id = model.get("id");
            if (id != null && id.isTextual()) {
                ids.add(id.asText());
            }
        }
        return new ModelListing(ids, null);
    }

    /** Whether the engine could be asked and answered a list. */
    public boolean read() {
        return failure == null;
    }
}
