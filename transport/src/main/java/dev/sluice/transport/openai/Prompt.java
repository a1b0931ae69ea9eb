package dev.sluice.transport.openai;

import dev.sluice.transport.tokenize.ChatPrompt;
import dev.sluice.transport.tokenize.EncodedPrompt;
import dev.sluice.transport.tokenize.PromptEncoder;
import dev.sluice.transport.tokenize.PromptException;
import java.util.Objects;

/** A request's prompt as the client gave it: text, token ids, or a chat. Immutable. */
public sealed interface Prompt permits Prompt.Text, Prompt.TokenIds, Prompt.Chat {
    /** The prompt in the model's tokens, by the model's {@code encoder}. */
    EncodedPrompt encode(PromptEncoder encoder) throws PromptException;

    /**
     * A completion prompt given as text.
     *
     * @param addSpecialTokens the request's {@code add_special_tokens}, or {@code null} for the model's default.
     */
    record Text(String text, Boolean addSpecialTokens) implements Prompt {
        public Text {
            Objects.requireNonNull(text, "text");
        }

        @Override
        public EncodedPrompt encode(PromptEncoder encoder) throws PromptException {
            return encoder.completion(text, addSpecialTokens);
        }
    }

    /** A completion prompt given as token ids ({@code >= 0}); they bypass tokenization. */
    record TokenIds(int[] ids) implements Prompt {
        public TokenIds {
            Objects.requireNonNull(ids, "ids");
        }

        @Override
        public EncodedPrompt encode(PromptEncoder encoder) throws PromptException {
            return encoder.tokenIds(ids, "prompt");
        }
    }

    /** Chat messages, for the model's chat template. */
    record Chat(ChatPrompt chat) implements Prompt {
        public Chat {
            Objects.requireNonNull(chat, "chat");
        }

        @Override
        public EncodedPrompt encode(PromptEncoder encoder) throws PromptException {
            return encoder.chat(chat);
        }
    }
}
