package dev.sluice.transport.openai;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Turns the prompt fields of a request into the text that gets tokenized. Chat messages become one
 * {@code role: content} line each, a stand-in for a chat template: identical conversations give identical text, so
 * a shared system prompt is a shared token prefix.
 */
final class PromptRenderer {
    private PromptRenderer() {
    }

    static String chat(JsonNode messages) throws OpenAiException {
        if (messages == null || !messages.isArray() || messages.isEmpty()) {
            throw OpenAiException.invalid("messages must be a non-empty array", "messages");
        }
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < messages.size(); i++) {
            JsonNode message = messages.get(i);
            JsonNode role = message.get("role");
            if (!message.isObject() || role == null || !role.isTextual()) {
                throw OpenAiException.invalid("messages[" + i + "] must be an object with a string role",
                    "messages[" + i + "].role");
            }
            text.append(role.asText()).append(": ");
            appendContent(text, message.get("content"), "messages[" + i + "].content");
            text.append('\n');
        }
        return text.toString();
    }

    static String completion(JsonNode prompt) throws OpenAiException {
        if (prompt != null && prompt.isTextual()) {
            return prompt.asText();
        }
        if (prompt != null && prompt.isArray() && prompt.size() == 1 && prompt.get(0).isTextual()) {
            return prompt.get(0).asText();
        }
        throw OpenAiException.invalid("prompt must be a string (or an array of one string)", "prompt");
    }

    private static void appendContent(StringBuilder text, JsonNode content, String param) throws OpenAiException {
        if (content == null || content.isNull()) {
            return;
        }
        if (content.isTextual()) {
            text.append(content.asText());
            return;
        }
        if (!content.isArray()) {
            throw OpenAiException.invalid(param + " must be a string or an array of content parts", param);
        }
        for (JsonNode part : content) {
            JsonNode partText = part.get("text");
            if (partText != null && partText.isTextual()) {
                text.append(partText.asText());
            }
        }
    }
}
