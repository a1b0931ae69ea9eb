package dev.sluice.transport.tokenize.hf;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;

/**
 * Rewrites the two pieces of Jinja2 expression syntax that real chat templates use and Jinjava parses otherwise,
 * into forms Jinjava evaluates as Jinja2 would, in the inside of one {@code {{ }}} or {@code {% %}} tag
 * ({@link JinjaSource} finds the tags); line breaks are kept, so error line numbers stay true.
 * <ul>
 *   <li>A keyword argument's value is parenthesized: {@code f(n=xs|length - 1)} becomes
 *       {@code f(n=(xs|length - 1))}. Jinjava parses {@code =} as a binary operator at the precedence of {@code +},
 *       which would read {@code (n=xs|length) - 1}.</li>
 *   <li>A slice becomes a method call: {@code xs[a:b:c]} becomes {@code xs.py_slice(a, b, c)}, an omitted part
 *       {@code none} ({@link PyMethods} gives it Python's meaning). Jinjava has no steps and no omitted start.</li>
 * </ul>
 * Stateless and thread-safe.
 */
final class TemplateRewriter {
    /** Words after which {@code (} opens a group, not a call. */
    private static final Set<String> KEYWORDS = Set.of("and", "or", "not", "in", "is", "if", "else", "elif", "for",
        "set", "return");

    private TemplateRewriter() {
    }

    /** The index after the string literal that starts at {@code quoteAt} (backslash escapes skipped). */
    static int stringEnd(String s, int quoteAt) {
        char quote = s.charAt(quoteAt);
        int i = quoteAt + 1;
        while (i < s.length() && s.charAt(i) != quote) {
            i += s.charAt(i) == '\\' ? 2 : 1;
        }
        return Math.min(i + 1, s.length());
    }

    /** One open bracket while rewriting an expression. */
    private static final class Frame {
        final char open;
        final boolean call;
        final boolean subscript;
        final int outStart;
        final List<Integer> colons = new ArrayList<>();
        boolean argStart = true;
        boolean wrapped;

        Frame(char open, boolean call, boolean subscript, int outStart) {
            this.open = open;
            this.call = call;
            this.subscript = subscript;
            this.outStart = outStart;
        }
    }

    /** Rewrites one tag's inside (see the class comment). */
    static String expression(String e) {
        StringBuilder out = new StringBuilder(e.length() + 16);
        Deque<Frame> frames = new ArrayDeque<>();
        int i = 0;
        while (i < e.length()) {
            char c = e.charAt(i);
            Frame top = frames.peek();
            if (c == '\'' || c == '"') {
                int end = stringEnd(e, i);
                out.append(e, i, end);
                i = end;
                markValue(top);
            } else if (Character.isJavaIdentifierStart(c)) {
                int end = i + 1;
                while (end < e.length() && Character.isJavaIdentifierPart(e.charAt(end))) {
                    end++;
                }
                String word = e.substring(i, end);
                out.append(word);
                if (top != null && top.call && top.argStart && isKeywordArgument(e, end)) {
                    int eq = e.indexOf('=', end);
                    out.append(e, end, eq + 1).append('(');
                    top.wrapped = true;
                    end = eq + 1;
                }
                markValue(top);
                i = end;
            } else if (c == '(' || c == '[' || c == '{') {
                boolean afterValue = endsWithValue(out);
                boolean call = c == '(' && afterValue && !KEYWORDS.contains(lastWord(out));
                markValue(top);
                frames.push(new Frame(c, call, c == '[' && afterValue, out.length()));
                out.append(c);
                i++;
            } else if ((c == ')' || c == ']' || c == '}') && top != null) {
                frames.pop();
                if (top.wrapped) {
                    out.append(')');
                }
                out.append(c);
                if (top.subscript && !top.colons.isEmpty()) {
                    slice(out, top);
                }
                i++;
            } else if (c == ',' && top != null) {
                if (top.wrapped) {
                    out.append(')');
                    top.wrapped = false;
                }
                out.append(c);
                top.argStart = true;
                i++;
            } else if (c == ':' && top != null && top.subscript) {
                top.colons.add(out.length());
                out.append(c);
                i++;
            } else {
                out.append(c);
                if (!Character.isWhitespace(c)) {
                    markValue(top);
                }
                i++;
            }
        }
        return out.toString();
    }

    private static void markValue(Frame top) {
        if (top != null) {
            top.argStart = false;
        }
    }

    /** {@code name =} (not {@code ==}) follows. */
    private static boolean isKeywordArgument(String e, int from) {
        int i = from;
        while (i < e.length() && Character.isWhitespace(e.charAt(i))) {
            i++;
        }
        return i < e.length() && e.charAt(i) == '=' && (i + 1 >= e.length() || e.charAt(i + 1) != '=');
    }

    /** Whether what precedes is a value a bracket can apply to: a name, a string, or a closing bracket. */
    private static boolean endsWithValue(StringBuilder out) {
        int i = out.length() - 1;
        while (i >= 0 && Character.isWhitespace(out.charAt(i))) {
            i--;
        }
        if (i < 0) {
            return false;
        }
        char c = out.charAt(i);
        return Character.isJavaIdentifierPart(c) || c == ')' || c == ']' || c == '\'' || c == '"';
    }

    private static String lastWord(StringBuilder out) {
        int end = out.length();
        while (end > 0 && Character.isWhitespace(out.charAt(end - 1))) {
            end--;
        }
        int start = end;
        while (start > 0 && Character.isJavaIdentifierPart(out.charAt(start - 1))) {
            start--;
        }
        return out.substring(start, end);
    }

    /** Replaces the subscript {@code [a:b:c]} just written with {@code .py_slice(a, b, c)}. */
    private static void slice(StringBuilder out, Frame frame) {
        int open = frame.outStart;
        int close = out.length() - 1;
        List<String> parts = new ArrayList<>(3);
        int from = open + 1;
        for (int colon : frame.colons) {
            parts.add(out.substring(from, colon).strip());
            from = colon + 1;
        }
        parts.add(out.substring(from, close).strip());
        while (parts.size() < 3) {
            parts.add("");
        }
        StringBuilder call = new StringBuilder(".py_slice(");
        for (int p = 0; p < 3; p++) {
            call.append(p > 0 ? ", " : "").append(parts.get(p).isEmpty() ? "none" : parts.get(p));
        }
        out.replace(open, out.length(), call.append(')').toString());
    }
}
