package dev.sluice.transport.tokenize.hf;

/**
 * A chat template's source made ready for Jinjava so that it renders as jinja2's lexer reads it in the engines'
 * environment ({@code trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=False}):
 * <ul>
 *   <li>line breaks as Python's {@code str.splitlines} finds them, each written {@code \n}, one trailing one
 *       dropped ({@link #lines});</li>
 *   <li>{@code lstrip_blocks}: spaces and tabs from the start of a line to a block tag or comment are dropped, and
 *       {@code trim_blocks}: the first newline after one is (not after {@code {% raw %}}); {@code {%+} and
 *       {@code +%}} keep them. Done here, with Jinjava's own options off, because Jinjava strips the whitespace
 *       before a block tag anywhere on its line and inside {@code raw};</li>
 *   <li>each tag's expression rewritten by {@link TemplateRewriter}; text, comments and {@code raw} blocks as they
 *       are.</li>
 * </ul>
 * Stateless and thread-safe.
 */
final class JinjaSource {
    private JinjaSource() {
    }

    static String prepare(String template) {
        String source = lines(template);
        StringBuilder out = new StringBuilder(source.length() + 64);
        int i = 0;
        int n = source.length();
        while (i < n) {
            boolean expression = source.startsWith("{{", i);
            boolean statement = source.startsWith("{%", i);
            boolean comment = source.startsWith("{#", i);
            if (!expression && !statement && !comment) {
                out.append(source.charAt(i++));
                continue;
            }
            int start = i + 2;
            int end = comment ? commentEnd(source, start) : tagEnd(source, start, expression ? '}' : '%');
            String inside = source.substring(start, end);
            boolean trim = false;
            if (!expression) {
                if (inside.startsWith("+")) {
                    inside = inside.substring(1);
                } else if (!inside.startsWith("-")) {
                    lstrip(out);
                }
                trim = !inside.endsWith("-");
                if (inside.endsWith("+")) {
                    inside = inside.substring(0, inside.length() - 1);
                    trim = false;
                }
            }
            boolean raw = statement && stripModifiers(inside).equals("raw");
            out.append(source, i, start).append(comment || isMacro(inside) ? inside
                : TemplateRewriter.expression(inside)).append(source, end, Math.min(end + 2, n));
            i = Math.min(end + 2, n);
            if (raw) {
                int endRaw = endRaw(source, i);
                out.append(source, i, endRaw);
                i = endRaw;
            } else if (trim && i < n && source.charAt(i) == '\n') {
                i++;
            }
        }
        return out.toString();
    }

    /**
     * The source as jinja2's lexer reads it: split into lines as Python's {@code str.splitlines} splits them,
     * joined by {@code \n}, so one trailing line break is dropped ({@code keep_trailing_newline=False}) and every
     * other becomes {@code \n}.
     */
    static String lines(String source) {
        StringBuilder out = new StringBuilder(source.length());
        int i = 0;
        while (i < source.length()) {
            char c = source.charAt(i);
            int breakLength = c == '\r' && i + 1 < source.length() && source.charAt(i + 1) == '\n' ? 2
                : isLineBreak(c) ? 1 : 0;
            if (breakLength == 0) {
                out.append(c);
                i++;
                continue;
            }
            i += breakLength;
            if (i < source.length()) {
                out.append('\n');
            }
        }
        return out.toString();
    }

    private static boolean isLineBreak(char c) {
        return c == '\n' || c == '\r' || c == '\u000b' || c == '\u000c' || c == '\u001c' || c == '\u001d'
            || c == '\u001e' || c == '\u0085' || c == '\u2028' || c == '\u2029';
    }

    /** Drops the spaces and tabs written since the last line break, if nothing else was written since. */
    private static void lstrip(StringBuilder out) {
        int i = out.length();
        while (i > 0 && (out.charAt(i - 1) == ' ' || out.charAt(i - 1) == '\t')) {
            i--;
        }
        if (i == 0 || out.charAt(i - 1) == '\n') {
            out.setLength(i);
        }
    }

    /** Where a tag's closing {@code %}}/{@code }}} starts: outside strings and brackets, as jinja2's lexer balances. */
    private static int tagEnd(String s, int from, char close) {
        int depth = 0;
        int i = from;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '\'' || c == '"') {
                i = TemplateRewriter.stringEnd(s, i);
                continue;
            }
            if (c == '{' || c == '(' || c == '[') {
                depth++;
            } else if ((c == '}' || c == ')' || c == ']') && depth > 0) {
                depth--;
            } else if (depth == 0 && c == close && i + 1 < s.length() && s.charAt(i + 1) == '}') {
                return i;
            }
            i++;
        }
        return s.length();
    }

    private static int commentEnd(String s, int from) {
        int end = s.indexOf("#}", from);
        return end < 0 ? s.length() : end;
    }

    /** Macro and call tags declare parameters, whose defaults Jinjava parses itself: left as they are. */
    private static boolean isMacro(String inside) {
        String tag = stripModifiers(inside);
        return tag.startsWith("macro ") || tag.startsWith("call");
    }

    private static String stripModifiers(String inside) {
        String tag = inside.strip();
        if (tag.startsWith("-") || tag.startsWith("+")) {
            tag = tag.substring(1);
        }
        if (tag.endsWith("-") || tag.endsWith("+")) {
            tag = tag.substring(0, tag.length() - 1);
        }
        return tag.strip();
    }

    /** Where the {@code {% endraw %}} tag after a raw block starts, or the end of the source. */
    private static int endRaw(String s, int from) {
        int i = from;
        while ((i = s.indexOf("{%", i)) >= 0) {
            int end = s.indexOf("%}", i);
            if (end < 0) {
                break;
            }
            if (stripModifiers(s.substring(i + 2, end)).equals("endraw")) {
                return i;
            }
            i = end;
        }
        return s.length();
    }
}
