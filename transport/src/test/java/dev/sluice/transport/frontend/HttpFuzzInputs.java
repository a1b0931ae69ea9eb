package dev.sluice.transport.frontend;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Random;

/**
 * Generated request bodies and header values for the HTTP fuzz test: valid requests, then truncated, byte-flipped,
 * wrongly typed, invalid UTF-8 and absurd {@code max_tokens} variants. Deterministic for a given {@link Random}.
 */
final class HttpFuzzInputs {
    static final String[] WRONG_TYPES = {"1", "-1", "1.5", "true", "null", "[]", "{}", "\"\"", "[1,2]",
        "{\"a\":1}", "\"x\"", "1e999"};

    /** Each is a 400: malformed, out of range, or more than the simulated engine's KV cache can ever hold. */
    static final String[] ABSURD_MAX_TOKENS = {"0", "-1", "2147483647", "100000", "2147483648",
        "9223372036854775808", "1e308", "1.5", "\"16\"", "-9223372036854775808",
        "99999999999999999999999999", "[]", "true"};
    static final Map<String, String[]> BAD_HEADERS = Map.of(
        "x-dynamo-request-priority", new String[] {"abc", "NaN", "Infinity", "-Infinity", "1e999", "0x10", "--1"},
        "x-dynamo-request-strict-priority", new String[] {"-1", "high", "1.5", "99999999999", "NaN", "0x1"},
        "x-dynamo-session-final", new String[] {"maybe", "yes", "2", "TRUE!", "nil"});

    private final String model;

    HttpFuzzInputs(String model) {
        this.model = model;
    }

    /** A valid chat or completions body for {@code path}. */
    String valid(String path, int maxTokens, boolean stream) {
        String prompt = path.endsWith("/chat/completions")
            ? "\"messages\":[{\"role\":\"user\",\"content\":\"hello river\"}]" : "\"prompt\":\"hello river\"";
        return "{\"model\":\"" + model + "\"," + prompt + ",\"max_tokens\":" + maxTokens + ",\"stream\":" + stream
            + "}";
    }

    /** A valid body cut short at a random point (never the full body). */
    static byte[] truncated(Random random, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        int cut = random.nextInt(bytes.length - 1);
        byte[] out = new byte[cut];
        System.arraycopy(bytes, 0, out, 0, cut);
        return out;
    }

    /** A valid body with one to four bytes replaced by random ones (which may leave it valid). */
    static byte[] flipped(Random random, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        int flips = 1 + random.nextInt(4);
        for (int i = 0; i < flips; i++) {
            bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
        }
        return bytes;
    }

    /** A body with one field of the expected shape given a value of the wrong type. */
    String wrongType(Random random, String path) {
        String value = WRONG_TYPES[random.nextInt(WRONG_TYPES.length)];
        boolean chat = path.endsWith("/chat/completions");
        return switch (random.nextInt(4)) {
            case 0 -> "{\"model\":" + nonString(value) + ",\"prompt\":\"hi\",\"messages\":[],\"max_tokens\":2}";
            case 1 -> chat ? "{\"model\":\"" + model + "\",\"messages\":" + value + ",\"max_tokens\":2}"
                : "{\"model\":\"" + model + "\",\"prompt\":" + nonString(value) + ",\"max_tokens\":2}";
            case 2 -> "{\"model\":\"" + model + "\",\"prompt\":\"hi\",\"messages\":[{\"role\":\"user\","
                + "\"content\":\"hi\"}],\"max_tokens\":2,\"stream\":" + nonBoolean(value) + "}";
            default -> "[" + valid(path, 2, false) + "]";
        };
    }

    /** A valid body whose prompt contains bytes that are not UTF-8. */
    byte[] invalidUtf8(Random random, String path) {
        String body = valid(path, 2, false);
        int at = body.indexOf("hello");
        byte[][] bad = {{(byte) 0xff}, {(byte) 0xc0, (byte) 0x80}, {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
            {(byte) 0xe2, (byte) 0x82}, {(byte) 0x80}};
        byte[] insert = bad[random.nextInt(bad.length)];
        byte[] head = body.substring(0, at).getBytes(StandardCharsets.UTF_8);
        byte[] tail = body.substring(at).getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[head.length + insert.length + tail.length];
        System.arraycopy(head, 0, out, 0, head.length);
        System.arraycopy(insert, 0, out, head.length, insert.length);
        System.arraycopy(tail, 0, out, head.length + insert.length, tail.length);
        return out;
    }

    /** A valid body but for {@code max_tokens}. */
    String absurdMaxTokens(Random random, String path) {
        return valid(path, 2, false).replace("\"max_tokens\":2",
            "\"max_tokens\":" + ABSURD_MAX_TOKENS[random.nextInt(ABSURD_MAX_TOKENS.length)]);
    }

    private static String nonString(String value) {
        // Strings and arrays (token ids) are valid prompts.
        return value.startsWith("\"") || value.startsWith("[") ? "7" : value;
    }

    private static String nonBoolean(String value) {
        // An explicit null means "not given", which is valid.
        return "true".equals(value) || "null".equals(value) ? "\"true\"" : value;
    }
}
