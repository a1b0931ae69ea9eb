package dev.sluice.transport.tokenize.hf;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;

/**
 * Rewrites the pieces of Jinja2 expression syntax that real chat templates use and Jinjava parses otherwise,
 * into forms Jinjava evaluates as Jinja2 would, in the inside of one {@code {{ }}} or {@code {% %}} tag
 * ({@link JinjaSource} finds the tags); line breaks are kept, so error line numbers stay true.
 * <ul>
 *   <li>A keyword argument's value is parenthesized: {@code f(n=xs|length - 1)} becomes
 *       {@code f(n=(xs|length - 1))}. Jinjava parses {@code =} as a binary operator at the precedence of {@code +},
 *       which would read {@code (n=xs|length) - 1}.</li>
 *   <li>A {@code not}'s operand is parenthesized: {@code not x is defined} becomes {@code not (x is defined)}.
 *       jinja2 negates the whole comparison or test after {@code not}; Jinjava would negate {@code x} alone.</li>
 *   <li>A slice becomes a method call: {@code xs[a:b:c]} becomes {@code xs.py_slice(a, b, c)}, an omitted part
 *       {@code none} ({@link PyMethods} gives it Python's meaning). Jinjava has no steps and no omitted start.</li>
 * </ul>
 * Stateless and thread-safe.
 */
final class TemplateRewriter {
    /** Words that end the operand of a {@code not} before them, at the same depth. */
    private static final Set<String> BOUNDARIES = Set.of("and", "or", "if", "else");
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
        /** {@code not (} written at this depth and not yet closed. */
        int nots;

        Frame(char open, boolean call, boolean subscript, int outStart) {
            this.open = open;
            this.call = call;
            this.subscript = subscript;
            this.outStart = outStart;
        }
    }

    /** Rewrites one tag's inside (see the class comment); a trailing whitespace-control modifier stays last. */
    static String expression(String inside) {
        int bodyEnd = inside.length();
        while (bodyEnd > 0 && Character.isWhitespace(inside.charAt(bodyEnd - 1))) {
            bodyEnd--;
        }
        if (bodyEnd > 0 && (inside.charAt(bodyEnd - 1) == '-' || inside.charAt(bodyEnd - 1) == '+')) {
            bodyEnd--;
        }
        StringBuilder out = new StringBuilder(inside.length() + 16);
        Deque<Frame> frames = new ArrayDeque<>();
        frames.push(new Frame(' ', false, false, 0));
        String e = inside.substring(0, bodyEnd);
        int i = 0;
        while (i < e.length()) {
            i = step(e, i, out, frames);
        }
        closeNots(out, frames.peek());
        return out.append(inside, bodyEnd, inside.length()).toString();
    }

    /** Rewrites what starts at {@code i}: a string, a word, a bracket, a separator or one other character. */
    private static int step(String e, int i, StringBuilder out, Deque<Frame> frames) {
        char c = e.charAt(i);
        Frame top = frames.peek();
        if (c == '\'' || c == '"') {
            int end = stringEnd(e, i);
            out.append(e, i, end);
            top.argStart = false;
            return end;
        }
        if (Character.isJavaIdentifierStart(c)) {
            return word(e, i, out, top);
        }
        if (c == '(' || c == '[' || c == '{') {
            boolean afterValue = endsWithValue(out);
            boolean call = c == '(' && afterValue && !KEYWORDS.contains(lastWord(out));
            top.argStart = false;
            frames.push(new Frame(c, call, c == '[' && afterValue, out.length()));
            out.append(c);
        } else if ((c == ')' || c == ']' || c == '}') && frames.size() > 1) {
            frames.pop();
            closeNots(out, top);
            if (top.wrapped) {
                out.append(')');
            }
            out.append(c);
            if (top.subscript && !top.colons.isEmpty()) {
                slice(out, top);
            }
        } else if (c == ',' && frames.size() > 1) {
            closeNots(out, top);
            if (top.wrapped) {
                out.append(')');
                top.wrapped = false;
            }
            out.append(c);
            top.argStart = true;
        } else if (c == ':' && top.subscript) {
            closeNots(out, top);
            top.colons.add(out.length());
            out.append(c);
        } else {
            out.append(c);
            if (!Character.isWhitespace(c)) {
                top.argStart = false;
            }
        }
        return i + 1;
    }

    /**
     * A word: a keyword argument's name (its value is parenthesized), {@code not} (its operand is: jinja2 applies it
     * to the whole comparison or test after it, Jinjava to the next value), a boolean operator or conditional (which
     * ends the operands of the {@code not}s before it), or a name.
     */
    private static int word(String e, int i, StringBuilder out, Frame top) {
        int end = i + 1;
        while (end < e.length() && Character.isJavaIdentifierPart(e.charAt(end))) {
            end++;
        }
        String word = e.substring(i, end);
        if (BOUNDARIES.contains(word)) {
            closeNots(out, top);
        }
        boolean negation = word.equals("not") && !lastWord(out).equals("is") && !nextWord(e, end).equals("in");
        out.append(word);
        if (negation) {
            out.append(" (");
            top.nots++;
        } else if (top.call && top.argStart && isKeywordArgument(e, end)) {
            int eq = e.indexOf('=', end);
            out.append(e, end, eq + 1).append('(');
            top.wrapped = true;
            end = eq + 1;
        }
        top.argStart = negation && top.argStart;
        return end;
    }

    /** Closes the {@code not (}s of {@code frame}, after the last character written that is not whitespace. */
    private static void closeNots(StringBuilder out, Frame frame) {
        int at = out.length();
        while (at > 0 && Character.isWhitespace(out.charAt(at - 1))) {
            at--;
        }
        for (; frame.nots > 0; frame.nots--) {
            out.insert(at, ')');
        }
    }

    private static String nextWord(String e, int from) {
        int start = from;
        while (start < e.length() && Character.isWhitespace(e.charAt(start))) {
            start++;
        }
        int end = start;
        while (end < e.length() && Character.isJavaIdentifierPart(e.charAt(end))) {
            end++;
        }
        return e.substring(start, end);
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
