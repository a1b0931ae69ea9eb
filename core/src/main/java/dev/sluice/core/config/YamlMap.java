package dev.sluice.core.config;

import java.util.ArrayList;
import java.util.List;

/**
 * A mapping being read from a strict YAML configuration file. Every schema mapping first calls {@link #allowOnly} so that an unknown
 * key (a typo, or a field of another Dynamo revision) is an error, never silently ignored. Immutable.
 */
public final class YamlMap {
    private final YamlNode.Mapping node;
    private final String path;
    private final String source;

    YamlMap(YamlNode.Mapping node, String path, String source) {
        this.node = node;
        this.path = path;
        this.source = source;
    }

    /** Rejects the first key not in {@code allowed}, naming it and listing the allowed keys. */
    public YamlMap allowOnly(List<String> allowed) throws ConfigException {
        for (YamlNode.Entry entry : node.entries()) {
            if (!allowed.contains(entry.key())) {
                throw new ConfigException(source, KeyPath.child(path, entry.key()), entry.line(), entry.column(),
                    "unknown key " + KeyPath.quote(entry.key()) + "; allowed keys: " + String.join(", ", allowed));
            }
        }
        return this;
    }

    /** True when the key is written, even with a null value. */
    public boolean contains(String key) {
        return node.entry(key) != null;
    }

    /** The value under {@code key}, or {@code null} when the key is absent or its value is null. */
    public YamlValue get(String key) {
        YamlNode.Entry entry = node.entry(key);
        if (entry == null || entry.value() instanceof YamlNode.Scalar scalar && scalar.isNull()) {
            return null;
        }
        return value(entry);
    }

    /** The value under {@code key}, which must be present and not null. */
    public YamlValue require(String key) throws ConfigException {
        YamlNode.Entry entry = node.entry(key);
        if (entry == null) {
            throw error("missing required key " + KeyPath.quote(key));
        }
        YamlValue value = value(entry);
        if (value.isNull()) {
            throw value.error("missing value for required key " + KeyPath.quote(key));
        }
        return value;
    }

    /** The value under {@code key} even when it is null; {@code null} only when the key is absent. */
    YamlValue raw(String key) {
        YamlNode.Entry entry = node.entry(key);
        return entry == null ? null : value(entry);
    }

    /** All values in document order, each positioned at its key. */
    public List<YamlValue> values() {
        List<YamlValue> values = new ArrayList<>(node.entries().size());
        for (YamlNode.Entry entry : node.entries()) {
            values.add(value(entry));
        }
        return values;
    }

    /** The keys in document order. */
    public List<String> keys() {
        List<String> keys = new ArrayList<>(node.entries().size());
        for (YamlNode.Entry entry : node.entries()) {
            keys.add(entry.key());
        }
        return keys;
    }

    public boolean isEmpty() {
        return node.entries().isEmpty();
    }

    /** An error about the mapping as a whole, at its first key. */
    public ConfigException error(String detail) {
        return new ConfigException(source, path, node.line(), node.column(), detail);
    }

    private YamlValue value(YamlNode.Entry entry) {
        return new YamlValue(entry.value(), KeyPath.child(path, entry.key()), source, entry.line(), entry.column());
    }
}
