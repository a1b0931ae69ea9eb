package dev.sluice.transport.tokenize;

/**
 * Turns prompt text into token ids. The same tokenizer must serve the router and the engines it routes to, so
 * that identical text yields identical ids and prefix caching lines up. Thread-safe.
 */
public interface Tokenizer {
    /** The token ids of {@code text}; never {@code null}. */
    int[] encode(CharSequence text);

    /**
     * The token ids of {@code text} while they are at most {@code maxTokens}: a text with more gets its first
     * {@code maxTokens + 1} only, which says it is over. A tokenizer that can stop early does (a hostile prompt then
     * costs the limit, not its size); this default tokenizes it all and cuts.
     */
    default int[] encode(CharSequence text, int maxTokens) {
        int[] ids = encode(text);
        return ids.length > maxTokens ? java.util.Arrays.copyOf(ids, maxTokens + 1) : ids;
    }
}
