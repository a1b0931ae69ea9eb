package dev.sluice.core.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Mutations of a valid policy file for the property tests: each one breaks the document in a way a careless or
 * hostile author might (a wrong type, a missing or unknown key, a huge number, NaN, deep nesting, a duplicate key,
 * an anchor and alias, stray characters). Deterministic for a given {@link Random}; stateless otherwise.
 */
final class PolicyMutations {
    /** A valid document with a root profile and a model profile. */
    static final String VALID = resource("/config/policy-class-queues.yaml");

    private static final String[] ODD_VALUES = {"[1, 2]", "{a: 1}", "\"text\"", "true", "null", "~", "1e400",
        "-1", "0", "99999999999999999999999999999", ".nan", ".NaN", ".inf", "-.inf", "0x7fffffff", "''", "-0.0",
        "1.7976931348623157e309", "2147483648", "-9223372036854775809", "!!binary aGk=", "!!str 5", "&a 1",
        "*a", "|\n  block", ">-\n  folded", "\"\\u0000\"", "\"\uFFFF\"", "[[[[[[1]]]]]]", "{{{}}}", "? x", "- -",
        "x: y: z", "\t1", "'unterminated", "\"unterminated", "%YAML 1.1", "---", "...", "@", "`"};
    private static final String[] UNKNOWN_KEYS = {"slo_ms", "busy_worker_ratio", "default_policy_class", "x", "",
        "\"\"", "? complex", "<<", "models", "quantum", "name"};

    private PolicyMutations() {
    }

    /** {@code count} mutations of {@link #VALID}, chosen and placed by {@code random}. */
    static String mutate(Random random, int count) {
        List<String> lines = new ArrayList<>(Arrays.asList(VALID.split("\n", -1)));
        for (int i = 0; i < count; i++) {
            int at = random.nextInt(lines.size());
            switch (random.nextInt(9)) {
                case 0 -> lines.set(at, replaceValue(lines.get(at), ODD_VALUES[random.nextInt(ODD_VALUES.length)]));
                case 1 -> lines.remove(at);
                case 2 -> lines.add(at, lines.get(at));
                case 3 -> lines.add(at, indent(lines.get(at)) + UNKNOWN_KEYS[random.nextInt(UNKNOWN_KEYS.length)]
                    + ": " + ODD_VALUES[random.nextInt(ODD_VALUES.length)]);
                case 4 -> lines.set(at, replaceValue(lines.get(at), "&anchor " + random.nextInt(100)));
                case 5 -> lines.add(at, indent(lines.get(at)) + "quantum: *anchor");
                case 6 -> lines.set(at, replaceValue(lines.get(at), nested(random.nextInt(80))));
                case 7 -> lines.set(at, insertChar(random, lines.get(at)));
                default -> lines.set(at, " ".repeat(random.nextInt(6)) + lines.get(at).strip());
            }
            if (lines.isEmpty()) {
                lines.add("");
            }
        }
        return String.join("\n", lines);
    }

    /** Flow-style nesting {@code depth} levels deep, mixing sequences and mappings. */
    static String nested(int depth) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < depth; i++) {
            text.append(i % 2 == 0 ? "[" : "{k: ");
        }
        text.append('1');
        for (int i = depth - 1; i >= 0; i--) {
            text.append(i % 2 == 0 ? "]" : "}");
        }
        return text.toString();
    }

    /** A "billion laughs" document: {@code levels} anchors, each aliasing the previous one {@code width} times. */
    static String bomb(int levels, int width) {
        StringBuilder text = new StringBuilder("a0: &a0 [\"lol\"]\n");
        for (int level = 1; level < levels; level++) {
            text.append('a').append(level).append(": &a").append(level).append(" [");
            for (int i = 0; i < width; i++) {
                text.append(i == 0 ? "" : ", ").append("*a").append(level - 1);
            }
            text.append("]\n");
        }
        return text.toString();
    }

    private static String replaceValue(String line, String value) {
        int colon = line.indexOf(": ");
        if (colon >= 0) {
            return line.substring(0, colon + 2) + value;
        }
        int dash = line.indexOf("- ");
        return dash >= 0 ? line.substring(0, dash + 2) + value : line + value;
    }

    private static String indent(String line) {
        int i = 0;
        while (i < line.length() && (line.charAt(i) == ' ' || line.charAt(i) == '-')) {
            i++;
        }
        return " ".repeat(i);
    }

    private static String insertChar(Random random, String line) {
        char[] choices = {':', '-', '[', ']', '{', '}', '&', '*', '!', '|', '>', '#', '"', '\'', '\t', '%', '@',
            '\u0000', '\u0085', '\u2028', '\uFEFF', '\uD800'};
        int at = line.isEmpty() ? 0 : random.nextInt(line.length() + 1);
        return line.substring(0, at) + choices[random.nextInt(choices.length)] + line.substring(at);
    }

    private static String resource(String name) {
        try (InputStream in = PolicyMutations.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("no resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
