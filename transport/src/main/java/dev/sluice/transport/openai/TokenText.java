package dev.sluice.transport.openai;

/**
 * Renders generated token ids as text: each id is a word from a fixed vocabulary, words separated by single
 * spaces. Simulated engines emit ids without meaning, so this only has to be deterministic and readable.
 */
public final class TokenText {
    private static final String[] WORDS = {
        "the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "was", "with", "be", "by", "on",
        "not", "he", "this", "are", "or", "his", "from", "at", "which", "but", "have", "an", "had", "they", "you",
        "were", "their", "one", "all", "we", "can", "her", "has", "there", "been", "if", "more", "when", "will",
        "would", "who", "so", "no", "river", "sluice", "gate", "water", "flow", "stone", "mill", "channel", "lock",
        "basin", "weir", "level", "tide", "current", "bank"
    };

    private TokenText() {
    }

    /** The word of {@code tokenId}. */
    public static String word(int tokenId) {
        return WORDS[Math.floorMod(tokenId, WORDS.length)];
    }

    /** The text of the {@code index}-th generated token: its word, after a space unless it is the first. */
    public static String piece(int tokenId, long index) {
        return index == 0 ? word(tokenId) : " " + word(tokenId);
    }
}
