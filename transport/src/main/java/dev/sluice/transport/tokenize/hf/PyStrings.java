package dev.sluice.transport.tokenize.hf;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Python's {@code str} methods that chat templates use, with Python's semantics. Stateless. */
final class PyStrings {
    /** Returned for a method Python's {@code str} does not have here: let Jinjava resolve it. */
    static final Object UNKNOWN = new Object();

    private PyStrings() {
    }

    static Object call(String s, String name, Object[] args) {
        return switch (name) {
            case "startswith" -> affix(s, arg(args, 0), true);
            case "endswith" -> affix(s, arg(args, 0), false);
            case "strip" -> strip(s, arg(args, 0), true, true);
            case "lstrip" -> strip(s, arg(args, 0), true, false);
            case "rstrip" -> strip(s, arg(args, 0), false, true);
            case "split" -> split(s, (String) arg(args, 0), maxSplit(args));
            case "upper" -> s.toUpperCase(Locale.ROOT);
            case "lower" -> s.toLowerCase(Locale.ROOT);
            case "title" -> title(s);
            case "capitalize" -> s.isEmpty() ? s : s.substring(0, 1).toUpperCase(Locale.ROOT)
                + s.substring(1).toLowerCase(Locale.ROOT);
            case "replace" -> replace(s, (String) arg(args, 0), (String) arg(args, 1), args.length > 2
                ? ((Number) args[2]).intValue() : -1);
            case "find" -> (long) s.indexOf((String) arg(args, 0));
            case "rfind" -> (long) s.lastIndexOf((String) arg(args, 0));
            case "count" -> count(s, (String) arg(args, 0));
            case "join" -> join(s, arg(args, 0));
            case "splitlines" -> new ArrayList<>(s.lines().toList());
            case "isspace" -> !s.isEmpty() && s.codePoints().allMatch(PyStrings::isSpace);
            case "isdigit" -> !s.isEmpty() && s.codePoints().allMatch(Character::isDigit);
            case "isalpha" -> !s.isEmpty() && s.codePoints().allMatch(Character::isLetter);
            case "isalnum" -> !s.isEmpty() && s.codePoints().allMatch(Character::isLetterOrDigit);
            default -> UNKNOWN;
        };
    }

    static Object arg(Object[] args, int index) {
        return index < args.length ? args[index] : null;
    }

    /** Python's whitespace: {@code str.isspace()}. */
    static boolean isSpace(int codePoint) {
        return Character.isWhitespace(codePoint) || Character.isSpaceChar(codePoint) || codePoint == 0x1c
            || codePoint == 0x1d || codePoint == 0x1e || codePoint == 0x1f || codePoint == 0x85;
    }

    private static boolean affix(String s, Object affix, boolean prefix) {
        if (affix instanceof Iterable<?> options) {
            for (Object option : options) {
                if (affix(s, option, prefix)) {
                    return true;
                }
            }
            return false;
        }
        String text = String.valueOf(affix);
        return prefix ? s.startsWith(text) : s.endsWith(text);
    }

    private static String strip(String s, Object chars, boolean left, boolean right) {
        String set = chars == null ? null : chars.toString();
        int start = 0;
        int end = s.length();
        while (left && start < end && strips(s.codePointAt(start), set)) {
            start += Character.charCount(s.codePointAt(start));
        }
        while (right && end > start && strips(s.codePointBefore(end), set)) {
            end -= Character.charCount(s.codePointBefore(end));
        }
        return s.substring(start, end);
    }

    private static boolean strips(int codePoint, String set) {
        return set == null ? isSpace(codePoint) : set.indexOf(codePoint) >= 0;
    }

    private static int maxSplit(Object[] args) {
        return args.length > 1 && args[1] != null ? ((Number) args[1]).intValue() : -1;
    }

    private static List<String> split(String s, String sep, int maxSplit) {
        List<String> parts = new ArrayList<>();
        if (sep == null) {
            int i = 0;
            while (true) {
                while (i < s.length() && isSpace(s.codePointAt(i))) {
                    i += Character.charCount(s.codePointAt(i));
                }
                if (i >= s.length()) {
                    return parts;
                }
                if (maxSplit >= 0 && parts.size() == maxSplit) {
                    parts.add(s.substring(i));
                    return parts;
                }
                int end = i;
                while (end < s.length() && !isSpace(s.codePointAt(end))) {
                    end += Character.charCount(s.codePointAt(end));
                }
                parts.add(s.substring(i, end));
                i = end;
            }
        }
        if (sep.isEmpty()) {
            throw new IllegalArgumentException("empty separator");
        }
        int from = 0;
        int at;
        while ((maxSplit < 0 || parts.size() < maxSplit) && (at = s.indexOf(sep, from)) >= 0) {
            parts.add(s.substring(from, at));
            from = at + sep.length();
        }
        parts.add(s.substring(from));
        return parts;
    }

    private static String title(String s) {
        StringBuilder out = new StringBuilder(s.length());
        boolean previousCased = false;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            boolean cased = Character.isUpperCase(cp) || Character.isLowerCase(cp) || Character.isTitleCase(cp);
            out.appendCodePoint(previousCased ? Character.toLowerCase(cp) : Character.toTitleCase(cp));
            previousCased = cased;
            i += Character.charCount(cp);
        }
        return out.toString();
    }

    private static String replace(String s, String old, String replacement, int count) {
        if (count < 0) {
            return s.replace(old, replacement);
        }
        StringBuilder out = new StringBuilder();
        int from = 0;
        int done = 0;
        int at;
        while (done < count && !old.isEmpty() && (at = s.indexOf(old, from)) >= 0) {
            out.append(s, from, at).append(replacement);
            from = at + old.length();
            done++;
        }
        return out.append(s.substring(from)).toString();
    }

    private static long count(String s, String sub) {
        if (sub.isEmpty()) {
            return s.codePointCount(0, s.length()) + 1L;
        }
        long found = 0;
        int from = 0;
        int at;
        while ((at = s.indexOf(sub, from)) >= 0) {
            found++;
            from = at + sub.length();
        }
        return found;
    }

    private static String join(String separator, Object items) {
        StringBuilder out = new StringBuilder();
        boolean first = true;
        for (Object item : (Iterable<?>) items) {
            if (!first) {
                out.append(separator);
            }
            out.append(item);
            first = false;
        }
        return out.toString();
    }
}
