package dev.sluice.transport.tokenize;

import dev.sluice.core.kv.BlockHasher;
import java.nio.charset.StandardCharsets;
import net.openhft.hashing.LongHashFunction;

/**
 * The default tokenizer, which needs no model files: each run of letters or digits is one token, and so is each
 * other non-space character. A token's id is a hash of its text in [1000, 2^31), so identical text always yields
 * identical ids (prefix caching lines up) and the count is close to a real tokenizer's for English prose.
 * Ids below 1000 are left free for special tokens. Stateless and thread-safe.
 */
public final class WordTokenizer implements Tokenizer {
    /** The shared instance. */
    public static final WordTokenizer INSTANCE = new WordTokenizer();

    private static final LongHashFunction HASH = LongHashFunction.xx3(BlockHasher.SEED);
    private static final int FIRST_ID = 1000;

    private WordTokenizer() {
    }

    @Override
    public int[] encode(CharSequence text) {
        return encode(text, Integer.MAX_VALUE - 1);
    }

    /** Stops at the token after the {@code maxTokens}-th: a prompt over the limit costs the limit, not its size. */
    @Override
    public int[] encode(CharSequence text, int maxTokens) {
        int[] ids = new int[(int) Math.min(Math.max(4, text.length() / 3), maxTokens + 1L)];
        int count = 0;
        int i = 0;
        int length = text.length();
        while (i < length && count <= maxTokens) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
                continue;
            }
            int end = i + 1;
            if (Character.isLetterOrDigit(c)) {
                while (end < length && Character.isLetterOrDigit(text.charAt(end))) {
                    end++;
                }
            } else if (Character.isHighSurrogate(c) && end < length) {
                end++;
            }
            if (count == ids.length) {
                ids = java.util.Arrays.copyOf(ids, ids.length * 2);
            }
            ids[count++] = idOf(text.subSequence(i, end));
            i = end;
        }
        return java.util.Arrays.copyOf(ids, count);
    }

    private static int idOf(CharSequence token) {
        long hash = HASH.hashBytes(token.toString().getBytes(StandardCharsets.UTF_8));
        return FIRST_ID + (int) Long.remainderUnsigned(hash, Integer.MAX_VALUE - FIRST_ID);
    }
}
