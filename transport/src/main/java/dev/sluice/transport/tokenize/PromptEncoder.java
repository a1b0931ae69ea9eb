package dev.sluice.transport.tokenize;

/**
 * A model's way from a request's prompt to token ids: its tokenizer, and for chats its chat template. One per
 * model; thread-safe, called from many request threads at once.
 */
public interface PromptEncoder {
    /**
     * A completion prompt's text.
     *
     * @param addSpecialTokens the request's {@code add_special_tokens}, or {@code null} for the default (yes, as
     *                         the tokenizer's configuration says: a BOS token for models that want one).
     */
    EncodedPrompt completion(String text, Boolean addSpecialTokens) throws PromptException;

    /** A chat, rendered and tokenized. */
    EncodedPrompt chat(ChatPrompt chat) throws PromptException;

    /**
     * {@link #completion(String, Boolean)}, tokenizing no further than {@code maxTokens + 1} tokens where the
     * tokenizer can stop early: a result longer than {@code maxTokens} says the prompt is over (its length is then
     * not the prompt's). This default tokenizes it all.
     */
    default EncodedPrompt completion(String text, Boolean addSpecialTokens, int maxTokens) throws PromptException {
        return completion(text, addSpecialTokens);
    }

    /** {@link #chat(ChatPrompt)}, bounded as {@link #completion(String, Boolean, int)} is. */
    default EncodedPrompt chat(ChatPrompt chat, int maxTokens) throws PromptException {
        return chat(chat);
    }

    /** How many token ids the model knows (ids are {@code 0..size-1}), or -1 when any non-negative id is valid. */
    int vocabularySize();

    /** A prompt given as token ids: checked against the vocabulary, then used as is, without special tokens. */
    default EncodedPrompt tokenIds(int[] ids, String param) throws PromptException {
        int size = vocabularySize();
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] < 0 || (size >= 0 && ids[i] >= size)) {
                throw new PromptException(param + "[" + i + "] = " + ids[i] + " is not a token id of this model "
                    + (size >= 0 ? "(its vocabulary has ids 0.." + (size - 1) + ")" : "(ids are >= 0)"), param);
            }
        }
        return new EncodedPrompt(ids, null);
    }

    /** For the ready line, e.g. {@code word tokenizer}. */
    String describe();
}
