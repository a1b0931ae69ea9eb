package dev.sluice.transport.tokenize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A prompt over the token limit is refused naming the limit, having cost the limit and not its size. */
class BoundedPromptEncoderTest {
    private static final String HUGE = "a ".repeat(1_000_000);
    private static final PromptEncoder BOUNDED = BoundedPromptEncoder.of(WordPromptEncoder.INSTANCE, 100);

    @Test
    void shouldStopTheWordTokenizerOneTokenPastTheLimit() {
        assertEquals(101, WordTokenizer.INSTANCE.encode(HUGE, 100).length);
        assertEquals(3, WordTokenizer.INSTANCE.encode("a b c", 100).length);
        assertEquals(1_000_000, WordTokenizer.INSTANCE.encode(HUGE).length);
    }

    @Test
    void shouldRefuseAnOversizedCompletionChatOrTokenIdPromptNamingTheLimit() {
        PromptException completion = assertThrows(PromptException.class, () -> BOUNDED.completion(HUGE, null));
        assertEquals("the prompt has more than 100 tokens, the most this server takes (--max-prompt-tokens)",
            completion.getMessage());
        assertEquals("prompt", completion.param());
        ChatPrompt chat = new ChatPrompt(List.of(Map.of("role", "user", "content", HUGE)), null, true, Map.of(), null);
        assertEquals("messages", assertThrows(PromptException.class, () -> BOUNDED.chat(chat)).param());
        assertEquals("prompt", assertThrows(PromptException.class,
            () -> BOUNDED.tokenIds(new int[101], "prompt")).param());
    }

    @Test
    void shouldTakeAPromptAtTheLimitAndAskTheEncoderForNoMoreThanOnePastIt() throws PromptException {
        int[] asked = new int[1];
        PromptEncoder recording = new PromptEncoder() {
            @Override
            public EncodedPrompt completion(String text, Boolean addSpecialTokens) {
                throw new AssertionError("the unbounded path was taken");
            }

            @Override
            public EncodedPrompt completion(String text, Boolean addSpecialTokens, int maxTokens) {
                asked[0] = maxTokens;
                return WordPromptEncoder.INSTANCE.completion(text, addSpecialTokens, maxTokens);
            }

            @Override
            public EncodedPrompt chat(ChatPrompt chat) {
                throw new AssertionError("not used");
            }

            @Override
            public int vocabularySize() {
                return -1;
            }

            @Override
            public String describe() {
                return "recording";
            }
        };
        String hundred = "a ".repeat(100);
        assertEquals(100, BoundedPromptEncoder.of(recording, 100).completion(hundred, null).tokens().length);
        assertEquals(100, asked[0]);
        assertSame(WordPromptEncoder.INSTANCE, BoundedPromptEncoder.of(WordPromptEncoder.INSTANCE, 0));
    }
}
