package dev.sluice.transport.engine.telemetry;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads the Prometheus text exposition format (version 0.0.4, what {@code prometheus_client} serves for vLLM and
 * SGLang): {@code # HELP}, {@code # TYPE} and other comment lines are skipped, blank lines and {@code \r\n} endings
 * are accepted, label values are unescaped ({@code \\}, {@code \"}, {@code \n}), values may be {@code NaN},
 * {@code +Inf} or {@code -Inf}, a trailing timestamp or OpenMetrics exemplar is ignored. A malformed line is
 * reported in {@link Exposition#errors()} with its line number and skipped; the other lines are read. Stateless.
 */
public final class PrometheusParser {
    /** The longest part of a bad line quoted in its error message. */
    private static final int QUOTE = 80;

    private PrometheusParser() {
    }

    /** Parses a whole exposition; never throws for bad text, only reports it. */
    public static Exposition parse(String text) {
        List<Exposition.Sample> samples = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        int lineNumber = 0;
        int start = 0;
        while (start <= text.length()) {
            int end = text.indexOf('\n', start);
            if (end < 0) {
                end = text.length();
            }
            lineNumber++;
            String line = text.substring(start, end > start && text.charAt(end - 1) == '\r' ? end - 1 : end);
            start = end + 1;
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.charAt(0) == '#') {
                continue;
            }
            try {
                samples.add(new LineReader(trimmed).sample());
            } catch (IllegalArgumentException e) {
                errors.add("line " + lineNumber + ": " + e.getMessage() + ": "
                    + (trimmed.length() > QUOTE ? trimmed.substring(0, QUOTE) + "..." : trimmed));
            }
        }
        return new Exposition(samples, errors);
    }

    /**
     * A sample value: a decimal float, or {@code NaN}, {@code Inf}, {@code +Inf}, {@code -Inf} in any case (as Go's
     * {@code strconv.ParseFloat}, which Prometheus uses, reads them).
     *
     * @throws IllegalArgumentException if {@code token} is none of these.
     */
    static double value(String token) {
        String lower = token.toLowerCase(Locale.ROOT);
        switch (lower) {
            case "nan", "+nan", "-nan" -> {
                return Double.NaN;
            }
            case "inf", "+inf", "infinity", "+infinity" -> {
                return Double.POSITIVE_INFINITY;
            }
            case "-inf", "-infinity" -> {
                return Double.NEGATIVE_INFINITY;
            }
            default -> {
                if (!decimal(token)) {
                    throw new IllegalArgumentException("'" + token + "' is not a number");
                }
                return Double.parseDouble(token);
            }
        }
    }

    /** {@code [+-]digits[.digits][(e|E)[+-]digits]}, digits on at least one side of the point. */
    private static boolean decimal(String token) {
        int i = 0;
        int n = token.length();
        if (i < n && (token.charAt(i) == '+' || token.charAt(i) == '-')) {
            i++;
        }
        int digits = 0;
        while (i < n && Character.isDigit(token.charAt(i))) {
            i++;
            digits++;
        }
        if (i < n && token.charAt(i) == '.') {
            i++;
            while (i < n && Character.isDigit(token.charAt(i))) {
                i++;
                digits++;
            }
        }
        if (digits == 0) {
            return false;
        }
        if (i < n && (token.charAt(i) == 'e' || token.charAt(i) == 'E')) {
            i++;
            if (i < n && (token.charAt(i) == '+' || token.charAt(i) == '-')) {
                i++;
            }
            int exponent = 0;
            while (i < n && Character.isDigit(token.charAt(i))) {
                i++;
                exponent++;
            }
            if (exponent == 0) {
                return false;
            }
        }
        return i == n;
    }

    /** One sample line, read left to right. Not thread-safe (one per line). */
    private static final class LineReader {
        private final String line;
        private int pos;

        LineReader(String line) {
            this.line = line;
        }

        Exposition.Sample sample() {
            String name = name(true);
            if (name.isEmpty()) {
                throw new IllegalArgumentException("expected a metric name");
            }
            Map<String, String> labels = Map.of();
            int afterName = pos;
            skipBlanks();
            if (pos < line.length() && line.charAt(pos) == '{') {
                pos++;
                labels = labels();
                skipBlanks();
            } else if (pos == afterName && pos < line.length()) {
                throw new IllegalArgumentException("unexpected '" + line.charAt(pos) + "' after the metric name");
            }
            if (pos >= line.length()) {
                throw new IllegalArgumentException("no value");
            }
            double value = value(token());
            skipBlanks();
            if (pos < line.length() && line.charAt(pos) != '#') {
                String timestamp = token();
                skipBlanks();
                if (!timestamp.matches("-?\\d+") || (pos < line.length() && line.charAt(pos) != '#')) {
                    throw new IllegalArgumentException("unexpected text after the value");
                }
            }
            return new Exposition.Sample(name, labels, value);
        }

        private Map<String, String> labels() {
            Map<String, String> labels = new HashMap<>();
            while (true) {
                skipBlanks();
                if (pos >= line.length()) {
                    throw new IllegalArgumentException("the label set is not closed");
                }
                if (line.charAt(pos) == '}') {
                    pos++;
                    return labels;
                }
                String label = name(false);
                if (label.isEmpty()) {
                    throw new IllegalArgumentException("expected a label name at column " + (pos + 1));
                }
                skipBlanks();
                expect('=');
                skipBlanks();
                expect('"');
                if (labels.put(label, quoted()) != null) {
                    throw new IllegalArgumentException("label '" + label + "' is given twice");
                }
                skipBlanks();
                if (pos < line.length() && line.charAt(pos) == ',') {
                    pos++;
                } else if (pos >= line.length() || line.charAt(pos) != '}') {
                    throw new IllegalArgumentException("expected ',' or '}' at column " + (pos + 1));
                }
            }
        }

        /** The rest of a quoted label value after its opening quote, unescaped; consumes the closing quote. */
        private String quoted() {
            StringBuilder value = new StringBuilder();
            while (pos < line.length()) {
                char c = line.charAt(pos++);
                if (c == '"') {
                    return value.toString();
                }
                if (c != '\\') {
                    value.append(c);
                    continue;
                }
                if (pos >= line.length()) {
                    break;
                }
                char escaped = line.charAt(pos++);
                switch (escaped) {
                    case '\\', '"' -> value.append(escaped);
                    case 'n' -> value.append('\n');
                    default -> throw new IllegalArgumentException("unknown escape '\\" + escaped + "' in a label "
                        + "value");
                }
            }
            throw new IllegalArgumentException("a label value is not closed");
        }

        /** A metric name ({@code [a-zA-Z_:][a-zA-Z0-9_:]*}) or a label name (no colons); empty if none here. */
        private String name(boolean metric) {
            int from = pos;
            while (pos < line.length()) {
                char c = line.charAt(pos);
                boolean letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (metric && c == ':');
                if (!letter && !(pos > from && c >= '0' && c <= '9')) {
                    break;
                }
                pos++;
            }
            return line.substring(from, pos);
        }

        private String token() {
            int from = pos;
            while (pos < line.length() && !blank(line.charAt(pos))) {
                pos++;
            }
            return line.substring(from, pos);
        }

        private void expect(char c) {
            if (pos >= line.length() || line.charAt(pos) != c) {
                throw new IllegalArgumentException("expected '" + c + "' at column " + (pos + 1));
            }
            pos++;
        }

        private void skipBlanks() {
            while (pos < line.length() && blank(line.charAt(pos))) {
                pos++;
            }
        }

        private static boolean blank(char c) {
            return c == ' ' || c == '\t';
        }
    }
}
