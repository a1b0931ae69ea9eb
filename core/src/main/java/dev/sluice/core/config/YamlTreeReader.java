package dev.sluice.core.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads one YAML document into a {@link YamlNode} tree with positions, using Jackson's streaming
 * {@link YAMLParser}. Rejects what a strict policy file never needs and a hostile one could abuse: duplicate keys,
 * aliases (no alias is ever expanded, so there is no "billion laughs"), more than one document, documents over
 * {@link #MAX_DOCUMENT_CHARS} characters and nesting deeper than {@link #MAX_DEPTH}. Stateless; thread-safe.
 */
final class YamlTreeReader {
    /** The largest document accepted, in characters; real policy files are a few kilobytes. */
    static final int MAX_DOCUMENT_CHARS = 1 << 20;
    /** The deepest nesting of mappings and sequences accepted; the schema itself needs six levels. */
    static final int MAX_DEPTH = 32;

    private static final Pattern INFINITY = Pattern.compile("[-+]?\\.(inf|Inf|INF)");
    private static final Pattern NOT_A_NUMBER = Pattern.compile("\\.(nan|NaN|NAN)");
    private static final YAMLFactory FACTORY = factory();

    private YamlTreeReader() {
    }

    /** The document's root node; an empty document is an empty mapping. {@code kind} names the file in errors. */
    static YamlNode read(String yaml, String source, String kind) throws ConfigException {
        if (yaml.length() > MAX_DOCUMENT_CHARS) {
            throw ConfigException.unparsable(source, kind, 0, 0,
                "document has " + yaml.length() + " characters; the limit is " + MAX_DOCUMENT_CHARS);
        }
        try (YAMLParser parser = FACTORY.createParser(yaml)) {
            if (parser.nextToken() == null) {
                return new YamlNode.Mapping(List.of(), 1, 1);
            }
            YamlNode root = new Reading(parser, source).value("", 0);
            if (parser.nextToken() != null) {
                JsonLocation at = parser.currentTokenLocation();
                throw ConfigException.unparsable(source, kind, at.getLineNr(), at.getColumnNr(),
                    "expected a single YAML document, found another one");
            }
            return root;
        } catch (JsonProcessingException e) {
            throw syntaxError(source, kind, e);
        } catch (IOException e) {
            throw ConfigException.unparsable(source, kind, 0, 0, String.valueOf(e.getMessage()));
        }
    }

    private static YAMLFactory factory() {
        LoaderOptions loader = new LoaderOptions();
        loader.setNestingDepthLimit(MAX_DEPTH + 1);
        loader.setCodePointLimit(MAX_DOCUMENT_CHARS);
        loader.setMaxAliasesForCollections(0);
        YAMLFactory factory = YAMLFactory.builder()
            .loaderOptions(loader)
            .enable(YAMLParser.Feature.EMPTY_STRING_AS_NULL)
            .build();
        factory.setStreamReadConstraints(StreamReadConstraints.builder()
            .maxNestingDepth(MAX_DEPTH + 1)
            .maxDocumentLength(MAX_DOCUMENT_CHARS)
            .maxStringLength(64 * 1024)
            .maxNumberLength(64)
            .build());
        return factory;
    }

    /** SnakeYAML's problem and its position when it has one (the context alone, "while parsing...", misleads). */
    private static ConfigException syntaxError(String source, String kind, JsonProcessingException e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof MarkedYAMLException marked && marked.getProblem() != null) {
                Mark mark = marked.getProblemMark();
                String context = marked.getContext() == null ? "" : " (" + marked.getContext() + ")";
                return ConfigException.unparsable(source, kind, mark == null ? 0 : mark.getLine() + 1,
                    mark == null ? 0 : mark.getColumn() + 1, marked.getProblem() + context);
            }
        }
        JsonLocation at = e.getLocation();
        return ConfigException.unparsable(source, kind, at == null ? 0 : Math.max(at.getLineNr(), 0),
            at == null ? 0 : Math.max(at.getColumnNr(), 0), firstLine(e.getOriginalMessage()));
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "malformed YAML";
        }
        int end = message.indexOf('\n');
        return (end < 0 ? message : message.substring(0, end)).strip();
    }

    /** One pass over one parser; the recursion depth is bounded by {@link #MAX_DEPTH}. */
    private record Reading(YAMLParser parser, String source) {

        YamlNode value(String path, int depth) throws IOException, ConfigException {
            JsonLocation at = parser.currentTokenLocation();
            int line = at.getLineNr();
            int column = at.getColumnNr();
            if (parser.isCurrentAlias()) {
                throw new ConfigException(source, path, line, column, "YAML aliases are not supported (found *"
                    + parser.getText() + "); write the value out in full");
            }
            JsonToken token = parser.currentToken();
            if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
                if (depth >= MAX_DEPTH) {
                    throw new ConfigException(source, path, line, column,
                        "nesting is deeper than " + MAX_DEPTH + " levels");
                }
                return token == JsonToken.START_OBJECT ? mapping(path, depth, line, column)
                    : sequence(path, depth, line, column);
            }
            return scalar(token, path, line, column);
        }

        private YamlNode mapping(String path, int depth, int line, int column) throws IOException, ConfigException {
            List<YamlNode.Entry> entries = new ArrayList<>();
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String key = parser.currentName();
                JsonLocation at = parser.currentTokenLocation();
                String keyPath = KeyPath.child(path, key);
                for (YamlNode.Entry earlier : entries) {
                    if (earlier.key().equals(key)) {
                        throw new ConfigException(source, keyPath, at.getLineNr(), at.getColumnNr(),
                            "duplicate key " + KeyPath.quote(key) + " (first defined at line " + earlier.line() + ")");
                    }
                }
                parser.nextToken();
                entries.add(new YamlNode.Entry(key, at.getLineNr(), at.getColumnNr(), value(keyPath, depth + 1)));
            }
            return new YamlNode.Mapping(entries, line, column);
        }

        private YamlNode sequence(String path, int depth, int line, int column) throws IOException, ConfigException {
            List<YamlNode> items = new ArrayList<>();
            while (parser.nextToken() != JsonToken.END_ARRAY) {
                items.add(value(KeyPath.index(path, items.size()), depth + 1));
            }
            return new YamlNode.Sequence(items, line, column);
        }

        private YamlNode scalar(JsonToken token, String path, int line, int column)
            throws IOException, ConfigException {
            String text = parser.getText();
            Number number = null;
            if (token == JsonToken.VALUE_NUMBER_INT) {
                number = parser.getNumberValue();
            } else if (token == JsonToken.VALUE_NUMBER_FLOAT) {
                number = floatValue(text, path, line, column);
            }
            return new YamlNode.Scalar(token, text, number, line, column);
        }

        private Double floatValue(String text, String path, int line, int column) throws IOException,
            ConfigException {
            if (INFINITY.matcher(text).matches()) {
                return text.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
            }
            if (NOT_A_NUMBER.matcher(text).matches()) {
                return Double.NaN;
            }
            try {
                return parser.getDoubleValue();
            } catch (JsonProcessingException e) {
                throw new ConfigException(source, path, line, column, "malformed number " + text);
            }
        }
    }
}
