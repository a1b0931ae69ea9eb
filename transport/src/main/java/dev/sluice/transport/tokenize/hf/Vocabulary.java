package dev.sluice.transport.tokenize.hf;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The ids a {@code tokenizer.json} defines, read with a streaming parser (the file is megabytes; its merges are
 * skipped, not built): the model's vocabulary ({@code model.vocab}, an object of token to id, or for Unigram models
 * a list whose index is the id) and the added tokens ({@code added_tokens}: {@code content} and {@code id}).
 *
 * @param size        the largest id plus one: ids {@code 0..size-1} are the model's.
 * @param addedTokens the added tokens' ids by content.
 */
record Vocabulary(int size, Map<String, Integer> addedTokens) {
    static Vocabulary read(Path tokenizerJson) throws IOException {
        int max = -1;
        Map<String, Integer> added = new HashMap<>();
        try (JsonParser json = new JsonFactory().createParser(tokenizerJson.toFile())) {
            expect(json.nextToken(), JsonToken.START_OBJECT, tokenizerJson);
            while (json.nextToken() == JsonToken.FIELD_NAME) {
                String field = json.currentName();
                json.nextToken();
                if (field.equals("added_tokens") && json.currentToken() == JsonToken.START_ARRAY) {
                    while (json.nextToken() == JsonToken.START_OBJECT) {
                        Map.Entry<String, Integer> token = addedToken(json);
                        if (token != null) {
                            added.put(token.getKey(), token.getValue());
                            max = Math.max(max, token.getValue());
                        }
                    }
                } else if (field.equals("model") && json.currentToken() == JsonToken.START_OBJECT) {
                    max = Math.max(max, modelVocabulary(json));
                } else {
                    json.skipChildren();
                }
            }
        }
        if (max < 0) {
            throw new IOException(tokenizerJson + " defines no token ids (no model.vocab, no added_tokens)");
        }
        return new Vocabulary(max + 1, Map.copyOf(added));
    }

    private static Map.Entry<String, Integer> addedToken(JsonParser json) throws IOException {
        String content = null;
        int id = -1;
        while (json.nextToken() == JsonToken.FIELD_NAME) {
            String field = json.currentName();
            JsonToken value = json.nextToken();
            if (field.equals("content") && value == JsonToken.VALUE_STRING) {
                content = json.getText();
            } else if (field.equals("id") && value == JsonToken.VALUE_NUMBER_INT) {
                id = json.getIntValue();
            } else {
                json.skipChildren();
            }
        }
        return content == null || id < 0 ? null : Map.entry(content, id);
    }

    /** The largest id in {@code model.vocab}, -1 if there is none. */
    private static int modelVocabulary(JsonParser json) throws IOException {
        int max = -1;
        while (json.nextToken() == JsonToken.FIELD_NAME) {
            String field = json.currentName();
            JsonToken value = json.nextToken();
            if (!field.equals("vocab")) {
                json.skipChildren();
            } else if (value == JsonToken.START_OBJECT) {
                while (json.nextToken() == JsonToken.FIELD_NAME) {
                    if (json.nextToken() == JsonToken.VALUE_NUMBER_INT) {
                        max = Math.max(max, json.getIntValue());
                    } else {
                        json.skipChildren();
                    }
                }
            } else if (value == JsonToken.START_ARRAY) {
                int index = 0;
                while (json.nextToken() != JsonToken.END_ARRAY) {
                    json.skipChildren();
                    index++;
                }
                max = Math.max(max, index - 1);
            }
        }
        return max;
    }

    private static void expect(JsonToken actual, JsonToken expected, Path file) throws IOException {
        if (actual != expected) {
            throw new IOException(file + " is not a JSON object");
        }
    }
}
