package dev.sluice.transport.tokenize.hf;

import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.lib.filter.Filter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The {@code tojson} filter as the engines define it for chat templates: Python's
 * {@code json.dumps(x, ensure_ascii=False, indent=indent, separators=separators, sort_keys=sort_keys)}, so a tool
 * schema renders to the same bytes: {@code ", "} and {@code ": "} between items (or {@code ","} with an indent), no
 * HTML escaping, non-ASCII as it is, floats as Python's {@code repr}. Stateless and thread-safe.
 */
final class PyJson implements Filter {
    @Override
    public String getName() {
        return "tojson";
    }

    @Override
    public Object filter(Object var, JinjavaInterpreter interpreter, String... args) {
        return dumps(var, null, false, false);
    }

    @Override
    public Object filter(Object var, JinjavaInterpreter interpreter, Object[] args, Map<String, Object> kwargs) {
        Object indent = kwargs.containsKey("indent") ? kwargs.get("indent") : PyStrings.arg(args, 0);
        String indentText = indent == null ? null : indent instanceof Number n ? " ".repeat(n.intValue())
            : indent.toString();
        boolean asciiOnly = Boolean.TRUE.equals(kwargs.get("ensure_ascii"));
        boolean sortKeys = Boolean.TRUE.equals(kwargs.get("sort_keys"));
        return dumps(var, indentText, asciiOnly, sortKeys);
    }

    /** {@code json.dumps}; {@code indent} {@code null} for one line. */
    static String dumps(Object value, String indent, boolean asciiOnly, boolean sortKeys) {
        StringBuilder out = new StringBuilder();
        new Writer(out, indent, asciiOnly, sortKeys).write(value, 0);
        return out.toString();
    }

    private record Writer(StringBuilder out, String indent, boolean asciiOnly, boolean sortKeys) {
        void write(Object value, int level) {
            if (value == null) {
                out.append("null");
            } else if (value instanceof Boolean b) {
                out.append(b ? "true" : "false");
            } else if (value instanceof CharSequence text) {
                string(text.toString());
            } else if (value instanceof Number number) {
                out.append(number(number));
            } else if (value instanceof Map<?, ?> map) {
                object(map, level);
            } else if (value instanceof Iterable<?> items) {
                array(items, level);
            } else if (value.getClass().isArray() && value instanceof Object[] items) {
                array(List.of(items), level);
            } else {
                string(value.toString());
            }
        }

        private void object(Map<?, ?> map, int level) {
            if (map.isEmpty()) {
                out.append("{}");
                return;
            }
            List<Map.Entry<?, ?>> entries = new ArrayList<>(map.entrySet());
            if (sortKeys) {
                entries.sort((a, b) -> key(a.getKey()).compareTo(key(b.getKey())));
            }
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> entry : entries) {
                separator(first, level + 1);
                first = false;
                string(key(entry.getKey()));
                out.append(": ");
                write(entry.getValue(), level + 1);
            }
            close(level, '}');
        }

        private void array(Iterable<?> items, int level) {
            if (!items.iterator().hasNext()) {
                out.append("[]");
                return;
            }
            out.append('[');
            boolean first = true;
            for (Object item : items) {
                separator(first, level + 1);
                first = false;
                write(item, level + 1);
            }
            close(level, ']');
        }

        private void separator(boolean first, int level) {
            if (!first) {
                out.append(indent == null ? ", " : ",");
            }
            if (indent != null) {
                out.append('\n').append(String.join("", Collections.nCopies(level, indent)));
            }
        }

        private void close(int level, char bracket) {
            if (indent != null) {
                out.append('\n').append(String.join("", Collections.nCopies(level, indent)));
            }
            out.append(bracket);
        }

        /** Python turns non-string keys into strings: {@code true}, {@code null}, numbers as written. */
        private static String key(Object key) {
            if (key == null) {
                return "null";
            }
            if (key instanceof Boolean b) {
                return b ? "true" : "false";
            }
            return key instanceof Number number ? number(number) : key.toString();
        }

        private void string(String s) {
            out.append('"');
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                switch (c) {
                    case '"' -> out.append("\\\"");
                    case '\\' -> out.append("\\\\");
                    case '\n' -> out.append("\\n");
                    case '\r' -> out.append("\\r");
                    case '\t' -> out.append("\\t");
                    case '\b' -> out.append("\\b");
                    case '\f' -> out.append("\\f");
                    default -> {
                        if (c < 0x20 || (asciiOnly && c > 0x7e)) {
                            out.append(String.format("\\u%04x", (int) c));
                        } else {
                            out.append(c);
                        }
                    }
                }
            }
            out.append('"');
        }
    }

    /** A number as Python's {@code json} writes it: integers as they are, floats as {@code repr(float)}. */
    static String number(Number number) {
        if (number instanceof Long || number instanceof Integer || number instanceof Short
            || number instanceof Byte || number instanceof BigInteger) {
            return number.toString();
        }
        if (number instanceof BigDecimal decimal && decimal.scale() <= 0) {
            return decimal.toBigInteger().toString();
        }
        return floatRepr(number.doubleValue());
    }

    /**
     * Python's {@code repr(float)}: the shortest digits that read back as the same double (what
     * {@link Double#toString} finds too, but for the one-digit case), in fixed notation for decimal exponents -4..15
     * ({@code 0.0001}, {@code 100.0}), else scientific ({@code 1e-05}, {@code 1.5e+16}).
     */
    static String floatRepr(double d) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "Infinity" : "-Infinity";
        }
        if (d == 0) {
            return 1 / d < 0 ? "-0.0" : "0.0";
        }
        String sign = d < 0 ? "-" : "";
        BigDecimal exact = new BigDecimal(Double.toString(Math.abs(d))).stripTrailingZeros();
        // Java writes two digits where one would do but two are closer (4.9e-324); Python writes the one.
        BigDecimal oneDigit = exact.round(new MathContext(1, RoundingMode.HALF_EVEN));
        if (exact.precision() == 2 && oneDigit.doubleValue() == Math.abs(d)) {
            exact = oneDigit.stripTrailingZeros();
        }
        String digits = exact.unscaledValue().toString();
        int exponent = digits.length() - 1 - exact.scale();
        if (exponent >= -4 && exponent < 16) {
            if (exponent < 0) {
                return sign + "0." + "0".repeat(-exponent - 1) + digits;
            }
            String whole = digits.length() > exponent + 1 ? digits.substring(0, exponent + 1)
                : digits + "0".repeat(exponent + 1 - digits.length());
            String fraction = digits.length() > exponent + 1 ? digits.substring(exponent + 1) : "0";
            return sign + whole + "." + fraction;
        }
        String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
        String power = String.format("%02d", Math.abs(exponent));
        return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + power;
    }
}
