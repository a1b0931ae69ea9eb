package dev.sluice.core.config;

import java.util.regex.Pattern;

/**
 * Key paths for messages: {@code policy_classes[2].queue_policy},
 * {@code models."example/large-model".uncached_isl_buckets[1].min_tokens}. A key that is not a plain word is quoted
 * so that dots and slashes inside model names cannot be mistaken for separators.
 */
final class KeyPath {
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_-]+");

    private KeyPath() {
    }

    /** The path of {@code key} inside the mapping at {@code parent} (empty for the document root). */
    static String child(String parent, String key) {
        String segment = PLAIN.matcher(key).matches() ? key : quote(key);
        return parent.isEmpty() ? segment : parent + "." + segment;
    }

    /** The path of item {@code index} of the sequence at {@code parent}. */
    static String index(String parent, int index) {
        return parent + "[" + index + "]";
    }

    /** {@code text} in double quotes, with quotes and backslashes escaped (as Dynamo's {@code {:?}} prints names). */
    static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
