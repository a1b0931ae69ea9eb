package dev.sluice.transport.tokenize;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class WordTokenizerTest {
    private final WordTokenizer tokenizer = WordTokenizer.INSTANCE;

    @Test
    void shouldSplitWordsAndPunctuation() {
        assertEquals(7, tokenizer.encode("Hello, world! It's").length);
        assertEquals(0, tokenizer.encode("  \n\t ").length);
    }

    @Test
    void shouldGiveIdenticalTextIdenticalIdsSoPrefixesLineUp() {
        int[] prompt = tokenizer.encode("You are a helpful assistant. Answer briefly.");
        int[] longer = tokenizer.encode("You are a helpful assistant. Answer briefly. What is DRR?");
        assertArrayEquals(prompt, Arrays.copyOf(longer, prompt.length));
        assertNotEquals(tokenizer.encode("cat")[0], tokenizer.encode("dog")[0]);
    }

    @Test
    void shouldKeepIdsAboveTheSpecialRange() {
        for (int id : tokenizer.encode("a b c d e f g 1 2 3 . , ; é 日本 🙂")) {
            assertTrue(id >= 1000, "id " + id);
        }
    }
}
