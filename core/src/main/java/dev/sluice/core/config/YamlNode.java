package dev.sluice.core.config;

import com.fasterxml.jackson.core.JsonToken;
import java.util.List;

/**
 * A parsed YAML value with the 1-based line and column where it starts. Scalars keep Jackson's token (the YAML type
 * Jackson resolved), their source text and, for numbers, the value. Built by {@link YamlTreeReader}; immutable.
 */
sealed interface YamlNode permits YamlNode.Scalar, YamlNode.Mapping, YamlNode.Sequence {

    int line();

    int column();

    /** A short description for "expected X, found Y" messages. */
    String describe();

    /**
     * A scalar.
     *
     * @param token  {@code VALUE_STRING}, {@code VALUE_NUMBER_INT}, {@code VALUE_NUMBER_FLOAT}, {@code VALUE_TRUE},
     *               {@code VALUE_FALSE} or {@code VALUE_NULL}.
     * @param text   the scalar as written (unquoted).
     * @param number the value of a number ({@code Integer}, {@code Long}, {@code BigInteger} or {@code Double}),
     *               else {@code null}.
     */
    record Scalar(JsonToken token, String text, Number number, int line, int column) implements YamlNode {
        boolean isNull() {
            return token == JsonToken.VALUE_NULL;
        }

        @Override
        public String describe() {
            return switch (token) {
                case VALUE_NULL -> "null";
                case VALUE_TRUE, VALUE_FALSE -> "a boolean (" + text + ")";
                case VALUE_NUMBER_INT -> "an integer (" + text + ")";
                case VALUE_NUMBER_FLOAT -> "a number (" + text + ")";
                default -> "a string (\"" + text + "\")";
            };
        }
    }

    /** A mapping; keys are unique (the reader rejects duplicates) and kept in document order. */
    record Mapping(List<Entry> entries, int line, int column) implements YamlNode {
        public Mapping {
            entries = List.copyOf(entries);
        }

        /** The entry for {@code key}, or {@code null}. */
        Entry entry(String key) {
            for (Entry entry : entries) {
                if (entry.key().equals(key)) {
                    return entry;
                }
            }
            return null;
        }

        @Override
        public String describe() {
            return "a mapping";
        }
    }

    /** One key of a mapping, with the key's own position. */
    record Entry(String key, int line, int column, YamlNode value) {
    }

    /** A sequence. */
    record Sequence(List<YamlNode> items, int line, int column) implements YamlNode {
        public Sequence {
            items = List.copyOf(items);
        }

        @Override
        public String describe() {
            return "a sequence";
        }
    }
}
