package dev.sluice.transport.tokenize;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A chat request's input to the model's chat template, as plain data (maps, lists, strings, {@code Long},
 * {@code Double}, {@code Boolean}, {@code null}), shaped as an OpenAI-compatible engine shapes it before rendering.
 * The data is not copied: whoever builds it hands it over and no one changes it afterwards, so it can be read from
 * any thread.
 *
 * @param messages            the messages: {@code role}, {@code content} (a string, or a list of
 *                            {@code {"type": "text", "text": ...}} parts), and where given {@code name},
 *                            {@code tool_calls} (their {@code arguments} as objects), {@code tool_call_id},
 *                            {@code reasoning_content}.
 * @param tools               the request's tools, or {@code null}.
 * @param addGenerationPrompt end the rendering with the assistant's turn opening ({@code add_generation_prompt},
 *                            true unless the request says otherwise).
 * @param templateKwargs      extra template variables ({@code chat_template_kwargs}, e.g. {@code enable_thinking}).
 * @param addSpecialTokens    whether the tokenizer adds its special tokens to the rendered text, or {@code null}
 *                            for the default: no, since the template already wrote them.
 */
public record ChatPrompt(List<Map<String, Object>> messages, List<Object> tools, boolean addGenerationPrompt,
                         Map<String, Object> templateKwargs, Boolean addSpecialTokens) {
    public ChatPrompt {
        Objects.requireNonNull(messages, "messages");
        Objects.requireNonNull(templateKwargs, "templateKwargs");
    }

    /** The text of a message's content: the string, the text parts joined by new lines, or "" for none. */
    public static String contentText(Object content) {
        if (content == null) {
            return "";
        }
        if (content instanceof String text) {
            return text;
        }
        StringBuilder joined = new StringBuilder();
        for (Object part : (List<?>) content) {
            if (!joined.isEmpty()) {
                joined.append('\n');
            }
            joined.append(((Map<?, ?>) part).get("text"));
        }
        return joined.toString();
    }
}
