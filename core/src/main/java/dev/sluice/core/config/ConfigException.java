package dev.sluice.core.config;

import java.util.Objects;

/**
 * A router-policy file that cannot be used: unreadable, not YAML, or not a valid policy. The message has the form
 * {@code <source>:<line>:<column>: <key path>: <what was wrong or expected>}, for example
 * {@code admission.yaml:14:5: policy_classes[0].quantum: quantum must be greater than zero}. Parts that are unknown
 * are left out: a file that cannot be read has no position and no key path, a problem with the whole document has
 * no key path.
 *
 * <p>Lines and columns count from 1; {@code 0} means "no position". Immutable.
 */
public final class ConfigException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String source;
    private final String keyPath;
    private final int line;
    private final int column;
    private final String detail;

    /**
     * @param source  the file path, or {@code <inline>} for a string.
     * @param keyPath the key path such as {@code policy_classes[2].queue_policy}; empty for the whole document.
     * @param line    1-based line, or 0 when unknown.
     * @param column  1-based column, or 0 when unknown.
     * @param detail  what was wrong or what was expected.
     */
    public ConfigException(String source, String keyPath, int line, int column, String detail) {
        super(format(source, keyPath, line, column, detail));
        this.source = Objects.requireNonNull(source, "source");
        this.keyPath = Objects.requireNonNull(keyPath, "keyPath");
        this.line = line;
        this.column = column;
        this.detail = Objects.requireNonNull(detail, "detail");
    }

    /** A file that could not be read: {@code failed to read router policy config <path>: <reason>}. */
    static ConfigException unreadable(String source, String reason) {
        return new ConfigException(source, "", 0, 0, "failed to read router policy config " + source + ": " + reason);
    }

    /**
     * A document that is not well-formed YAML (or too large or deep to read): {@code failed to parse <kind> <path>:
     * <problem>}, where {@code kind} says what the file is, e.g. {@code router policy config}.
     */
    static ConfigException unparsable(String source, String kind, int line, int column, String problem) {
        return new ConfigException(source, "", line, column, "failed to parse " + kind + " " + source + ": " + problem);
    }

    /** The file path, or {@code <inline>}. */
    public String source() {
        return source;
    }

    /** The key path of the offending key or value; empty when the problem concerns the whole document. */
    public String keyPath() {
        return keyPath;
    }

    /** The 1-based line of the offending key or value, or 0 when unknown. */
    public int line() {
        return line;
    }

    /** The 1-based column of the offending key or value, or 0 when unknown. */
    public int column() {
        return column;
    }

    /** The message without source, position and key path. */
    public String detail() {
        return detail;
    }

    private static String format(String source, String keyPath, int line, int column, String detail) {
        StringBuilder text = new StringBuilder();
        if (line > 0) {
            text.append(source).append(':').append(line).append(':').append(column).append(": ");
        }
        if (!keyPath.isEmpty()) {
            text.append(keyPath).append(": ");
        }
        return text.append(detail).toString();
    }
}
