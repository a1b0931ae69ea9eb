package dev.sluice.transport.tokenize;

/**
 * A model's {@link PromptEncoder} with a prompt-token limit ({@code serve --max-prompt-tokens}): a prompt with more
 * tokens is the client's 400 naming the limit, and its tokenization stops one token past the limit where the
 * tokenizer can stop (the word tokenizer), so a hostile prompt costs the limit, not its size. Token-id prompts are
 * counted before their ids are checked. Thread-safe when the encoder it wraps is.
 */
public final class BoundedPromptEncoder implements PromptEncoder {
    private final PromptEncoder encoder;
    private final int maxTokens;

    private BoundedPromptEncoder(PromptEncoder encoder, int maxTokens) {
        this.encoder = encoder;
        this.maxTokens = maxTokens;
    }

    /** {@code encoder} taking prompts of at most {@code maxTokens} tokens; {@code 0} for no limit. */
    public static PromptEncoder of(PromptEncoder encoder, int maxTokens) {
        if (maxTokens < 0) {
            throw new IllegalArgumentException("the prompt-token limit must be >= 0 (0: none), was " + maxTokens);
        }
        return maxTokens == 0 ? encoder : new BoundedPromptEncoder(encoder, maxTokens);
    }

    @Override
    public EncodedPrompt completion(String text, Boolean addSpecialTokens) throws PromptException {
        return checked(encoder.completion(text, addSpecialTokens, maxTokens), "prompt");
    }

    @Override
    public EncodedPrompt chat(ChatPrompt chat) throws PromptException {
        return checked(encoder.chat(chat, maxTokens), "messages");
    }

    @Override
    public EncodedPrompt tokenIds(int[] ids, String param) throws PromptException {
        checked(ids.length, param);
        return encoder.tokenIds(ids, param);
    }

    private EncodedPrompt checked(EncodedPrompt prompt, String param) throws PromptException {
        checked(prompt.tokens().length, param);
        return prompt;
    }

    private void checked(int tokens, String param) throws PromptException {
        if (tokens > maxTokens) {
            throw new PromptException("the prompt has more than " + maxTokens + " tokens, the most this server "
                + "takes (--max-prompt-tokens)", param);
        }
    }

    @Override
    public int vocabularySize() {
        return encoder.vocabularySize();
    }

    @Override
    public String describe() {
        return encoder.describe();
    }
}
