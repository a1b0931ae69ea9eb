package dev.sluice.core.config;

import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A value being read from a strict YAML configuration file (the router policy, a host's own files): the node, its
 * key path, and the position errors point at (the key's position when the value sits under a key, the node's own
 * otherwise). Typed accessors throw {@link ConfigException} saying what was expected and what was found, with the
 * file, line, column and key path. {@link #read} parses a document strictly (no duplicate keys, no aliases, one
 * document, bounded size and depth). Immutable.
 */
public final class YamlValue {
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z0-9_.-]+");

    private final YamlNode node;
    private final String path;
    private final String source;
    private final int line;
    private final int column;

    YamlValue(YamlNode node, String path, String source, int line, int column) {
        this.node = node;
        this.path = path;
        this.source = source;
        this.line = line;
        this.column = column;
    }

    /**
     * The text of a YAML file, read up to the reader's limit ({@value YamlTreeReader#MAX_DOCUMENT_CHARS} bytes) and
     * no further, whatever the file is: a device such as {@code /dev/zero} or a file that grows is cut there, not
     * read into memory.
     *
     * @throws IOException the file cannot be read, is not UTF-8 ({@link java.nio.charset.CharacterCodingException}), or
     *                     is longer than the limit (the message says so).
     */
    public static String readFile(Path file) throws IOException {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(YamlTreeReader.MAX_DOCUMENT_CHARS + 1);
        }
        if (bytes.length > YamlTreeReader.MAX_DOCUMENT_CHARS) {
            throw new IOException("it has more than " + YamlTreeReader.MAX_DOCUMENT_CHARS + " bytes, the limit");
        }
        // Strict: malformed UTF-8 is the file's error (CharacterCodingException), not replacement characters.
        return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
    }

    /**
     * The root of {@code yaml}, read strictly; {@code source} names the file in error messages, {@code kind} what it
     * is (e.g. {@code engines file}) in a syntax error's.
     */
    public static YamlValue read(String yaml, String source, String kind) throws ConfigException {
        return root(YamlTreeReader.read(yaml, source, kind), source);
    }

    /** The document root. */
    static YamlValue root(YamlNode node, String source) {
        return new YamlValue(node, "", source, node.line(), node.column());
    }

    /** True when {@code name} matches {@code [A-Za-z0-9_.-]+}. */
    static boolean isIdentifier(String name) {
        return IDENTIFIER.matcher(name).matches();
    }

    YamlNode node() {
        return node;
    }

    public String path() {
        return path;
    }

    public String source() {
        return source;
    }

    /** An error about this value. */
    public ConfigException error(String detail) {
        return new ConfigException(source, path, line, column, detail);
    }

    public boolean isNull() {
        return node instanceof YamlNode.Scalar scalar && scalar.isNull();
    }

    /** Any non-null scalar, as written: {@code name: 1} is the name {@code "1"}, as in Dynamo's serde schema. */
    public String string() throws ConfigException {
        if (node instanceof YamlNode.Scalar scalar && !scalar.isNull()) {
            return scalar.text();
        }
        throw error("expected a string, found " + node.describe());
    }

    /** A string matching {@code [A-Za-z0-9_.-]+}; else {@code <kind> name "<x>" must match [A-Za-z0-9_.-]+}. */
    public String identifier(String kind) throws ConfigException {
        String name = string();
        if (!isIdentifier(name)) {
            throw error(kind + " name " + KeyPath.quote(name) + " must match [A-Za-z0-9_.-]+");
        }
        return name;
    }

    /** An integer from 0 to {@link Long#MAX_VALUE}. */
    public long nonNegativeLong() throws ConfigException {
        if (!(node instanceof YamlNode.Scalar scalar) || scalar.token() != JsonToken.VALUE_NUMBER_INT) {
            throw error("expected a non-negative integer, found " + node.describe());
        }
        Number number = scalar.number();
        if (number instanceof BigInteger big && big.bitLength() >= Long.SIZE) {
            throw error(big.signum() < 0 ? "expected a non-negative integer, found " + scalar.text()
                : "integer " + scalar.text() + " is too large; the maximum is " + Long.MAX_VALUE);
        }
        long value = number.longValue();
        if (value < 0) {
            throw error("expected a non-negative integer, found " + scalar.text());
        }
        return value;
    }

    /** {@code true} or {@code false}. */
    public boolean bool() throws ConfigException {
        if (node instanceof YamlNode.Scalar scalar && (scalar.token() == JsonToken.VALUE_TRUE
            || scalar.token() == JsonToken.VALUE_FALSE)) {
            return scalar.token() == JsonToken.VALUE_TRUE;
        }
        throw error("expected true or false, found " + node.describe());
    }

    /** Any number, including {@code .inf} and {@code .nan}; range checks are the caller's. */
    public double number() throws ConfigException {
        if (node instanceof YamlNode.Scalar scalar && scalar.number() != null) {
            return scalar.number().doubleValue();
        }
        throw error("expected a number, found " + node.describe());
    }

    /** This value as a mapping. */
    public YamlMap map() throws ConfigException {
        if (node instanceof YamlNode.Mapping mapping) {
            return new YamlMap(mapping, path, source);
        }
        throw error("expected a mapping, found " + node.describe());
    }

    /** This value as a sequence; each item's errors point at the item. */
    public List<YamlValue> list() throws ConfigException {
        if (!(node instanceof YamlNode.Sequence sequence)) {
            throw error("expected a sequence, found " + node.describe());
        }
        List<YamlValue> items = new ArrayList<>(sequence.items().size());
        for (YamlNode item : sequence.items()) {
            items.add(new YamlValue(item, KeyPath.index(path, items.size()), source, item.line(), item.column()));
        }
        return items;
    }
}
