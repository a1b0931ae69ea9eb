package dev.sluice.transport.tokenize;

import java.util.Map;

/**
 * The default prompt encoder, which needs no model files: the {@link WordTokenizer}, and chats as one
 * {@code role: content} line per message (a stand-in for a chat template: identical conversations give identical
 * text, so a shared system prompt is a shared token prefix). Remote engines are sent the text, which they tokenize
 * themselves; token-id prompts are sent as ids. No special tokens. Stateless and thread-safe.
 */
public final class WordPromptEncoder implements PromptEncoder {
    /** The shared instance. */
    public static final WordPromptEncoder INSTANCE = new WordPromptEncoder();

    private WordPromptEncoder() {
    }

    @Override
    public EncodedPrompt completion(String text, Boolean addSpecialTokens) {
        return new EncodedPrompt(WordTokenizer.INSTANCE.encode(text), text);
    }

    @Override
    public EncodedPrompt chat(ChatPrompt chat) {
        String text = render(chat);
        return new EncodedPrompt(WordTokenizer.INSTANCE.encode(text), text);
    }

    @Override
    public EncodedPrompt completion(String text, Boolean addSpecialTokens, int maxTokens) {
        return new EncodedPrompt(WordTokenizer.INSTANCE.encode(text, maxTokens), text);
    }

    @Override
    public EncodedPrompt chat(ChatPrompt chat, int maxTokens) {
        String text = render(chat);
        return new EncodedPrompt(WordTokenizer.INSTANCE.encode(text, maxTokens), text);
    }

    /** The chat as {@code role: content} lines, each ended by a new line. */
    public static String render(ChatPrompt chat) {
        StringBuilder text = new StringBuilder();
        for (Map<String, Object> message : chat.messages()) {
            text.append(message.get("role")).append(": ").append(ChatPrompt.contentText(message.get("content")))
                .append('\n');
        }
        return text.toString();
    }

    @Override
    public int vocabularySize() {
        return -1;
    }

    @Override
    public String describe() {
        return "word tokenizer";
    }
}
