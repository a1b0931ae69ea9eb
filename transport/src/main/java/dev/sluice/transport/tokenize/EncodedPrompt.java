package dev.sluice.transport.tokenize;

import java.util.Objects;

/**
 * A prompt as the router and the engines see it. Its ids are not copied: read-only once made, like the engine
 * request they go into.
 *
 * @param tokens the token ids the router hashes into KV blocks and an in-process engine prefills; not copied, so
 *               do not change them.
 * @param text   the text a remote engine is sent instead of the ids, or {@code null} to send the ids. Only a
 *               tokenizer that is not the engine's own (the word tokenizer) gives text: the engine then tokenizes
 *               it itself.
 */
public record EncodedPrompt(int[] tokens, String text) {
    public EncodedPrompt {
        Objects.requireNonNull(tokens, "tokens");
    }
}
