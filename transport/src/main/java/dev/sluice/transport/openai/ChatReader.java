package dev.sluice.transport.openai;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.transport.tokenize.ChatPrompt;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The chat fields of {@code /v1/chat/completions}, read into a {@link ChatPrompt} shaped as vLLM shapes a
 * conversation for the chat template: {@code content} a string, {@code null}, or text parts (any other part, an
 * image say, is refused by name); an assistant's {@code tool_calls} with their JSON-string {@code arguments} parsed
 * into objects (none: {@code {}}), an empty list dropped; {@code name}, {@code tool_call_id} and the reasoning kept;
 * each tool as {@code {"type", "function": {"name", "description", "parameters", ...}}}, absent fields
 * {@code null}. Also {@code add_generation_prompt}, {@code chat_template_kwargs}, {@code add_special_tokens}.
 * Stateless.
 */
final class ChatReader {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ChatReader() {
    }

    static Prompt read(JsonNode root) throws OpenAiException {
        JsonNode messages = root.get("messages");
        if (messages == null || !messages.isArray() || messages.isEmpty()) {
            throw OpenAiException.invalid("messages must be a non-empty array", "messages");
        }
        List<Map<String, Object>> read = new ArrayList<>(messages.size());
        for (int i = 0; i < messages.size(); i++) {
            read.add(message(messages.get(i), "messages[" + i + "]"));
        }
        if (Boolean.TRUE.equals(CompletionPromptReader.optionalBoolean(root, "continue_final_message"))) {
            throw OpenAiException.invalid("continue_final_message is not supported", "continue_final_message");
        }
        JsonNode template = root.get("chat_template");
        if (template != null && !template.isNull()) {
            throw OpenAiException.invalid("a chat_template in the request is not supported; the model's own "
                + "template renders the chat", "chat_template");
        }
        Boolean generationPrompt = CompletionPromptReader.optionalBoolean(root, "add_generation_prompt");
        JsonNode kwargs = root.get("chat_template_kwargs");
        if (kwargs != null && !kwargs.isNull() && !kwargs.isObject()) {
            throw OpenAiException.invalid("chat_template_kwargs must be an object", "chat_template_kwargs");
        }
        return new Prompt.Chat(new ChatPrompt(read, tools(root.get("tools")), generationPrompt == null
            || generationPrompt, kwargs == null || kwargs.isNull() ? Map.of() : PlainJson.object(kwargs),
            CompletionPromptReader.optionalBoolean(root, "add_special_tokens")));
    }

    private static Map<String, Object> message(JsonNode message, String at) throws OpenAiException {
        JsonNode role = message.get("role");
        if (!message.isObject() || role == null || !role.isTextual()) {
            throw OpenAiException.invalid(at + " must be an object with a string role", at + ".role");
        }
        Map<String, Object> read = new LinkedHashMap<>();
        read.put("role", role.asText());
        read.put("content", content(message.get("content"), at + ".content"));
        JsonNode calls = message.get("tool_calls");
        if (role.asText().equals("assistant") && calls != null && calls.isArray() && !calls.isEmpty()) {
            read.put("tool_calls", toolCalls(calls, at + ".tool_calls"));
        }
        JsonNode reasoning = message.has("reasoning") ? message.get("reasoning") : message.get("reasoning_content");
        if (role.asText().equals("assistant") && reasoning != null && reasoning.isTextual()) {
            read.put("reasoning", reasoning.asText());
            read.put("reasoning_content", reasoning.asText());
        }
        for (String field : new String[] {"tool_call_id", "name"}) {
            JsonNode value = message.get(field);
            if (value != null && value.isTextual()) {
                read.put(field, value.asText());
            }
        }
        return read;
    }

    private static Object content(JsonNode content, String at) throws OpenAiException {
        if (content == null || content.isNull()) {
            return null;
        }
        if (content.isTextual()) {
            return content.asText();
        }
        if (!content.isArray()) {
            throw OpenAiException.invalid(at + " must be a string or an array of content parts", at);
        }
        List<Object> parts = new ArrayList<>(content.size());
        for (int i = 0; i < content.size(); i++) {
            JsonNode part = content.get(i);
            JsonNode type = part.get("type");
            JsonNode text = part.get("text");
            if (type != null && type.isTextual() && !type.asText().equals("text")) {
                throw OpenAiException.invalid(at + "[" + i + "] is a content part of type " + type.asText()
                    + ", which is not supported; only text parts are", at);
            }
            if (type == null || !type.isTextual() || text == null || !text.isTextual()) {
                throw OpenAiException.invalid(at + "[" + i + "] must be {\"type\": \"text\", \"text\": ...}", at);
            }
            parts.add(Map.of("type", "text", "text", text.asText()));
        }
        return parts;
    }

    private static List<Object> toolCalls(JsonNode calls, String at) throws OpenAiException {
        List<Object> read = new ArrayList<>(calls.size());
        for (int i = 0; i < calls.size(); i++) {
            JsonNode call = calls.get(i);
            JsonNode function = call.get("function");
            if (!call.isObject() || function == null || !function.isObject()) {
                throw OpenAiException.invalid(at + "[" + i + "] must be an object with a function", at);
            }
            Map<String, Object> copy = PlainJson.object(call);
            Map<String, Object> fn = PlainJson.object(function);
            fn.put("arguments", arguments(function.get("arguments"), at + "[" + i + "].function.arguments"));
            copy.put("function", fn);
            read.add(copy);
        }
        return read;
    }

    /** A tool call's arguments as an object, as tool-use templates expect them; a JSON string is parsed. */
    private static Object arguments(JsonNode arguments, String at) throws OpenAiException {
        if (arguments == null || arguments.isNull() || (arguments.isTextual() && arguments.asText().isEmpty())) {
            return new LinkedHashMap<String, Object>();
        }
        if (!arguments.isTextual()) {
            return PlainJson.of(arguments);
        }
        try {
            return PlainJson.of(JSON.readTree(arguments.asText()));
        } catch (JacksonException e) {
            throw OpenAiException.invalid(at + " must be JSON: " + e.getOriginalMessage(), at);
        }
    }

    private static List<Object> tools(JsonNode tools) throws OpenAiException {
        if (tools == null || tools.isNull()) {
            return null;
        }
        if (!tools.isArray()) {
            throw OpenAiException.invalid("tools must be an array", "tools");
        }
        List<Object> read = new ArrayList<>(tools.size());
        for (int i = 0; i < tools.size(); i++) {
            JsonNode tool = tools.get(i);
            JsonNode function = tool.get("function");
            JsonNode name = function == null ? null : function.get("name");
            if (!tool.isObject() || function == null || !function.isObject() || name == null || !name.isTextual()) {
                throw OpenAiException.invalid("tools[" + i + "] must be {\"type\": \"function\", \"function\": "
                    + "{\"name\": ...}}", "tools");
            }
            Map<String, Object> fn = new LinkedHashMap<>();
            fn.put("name", name.asText());
            fn.put("description", PlainJson.of(function.get("description")));
            fn.put("parameters", PlainJson.of(function.get("parameters")));
            fn.putAll(PlainJson.object(function));
            Map<String, Object> shaped = new LinkedHashMap<>();
            shaped.put("type", tool.has("type") ? PlainJson.of(tool.get("type")) : "function");
            shaped.put("function", fn);
            for (Map.Entry<String, Object> field : PlainJson.object(tool).entrySet()) {
                shaped.putIfAbsent(field.getKey(), field.getValue());
            }
            read.add(shaped);
        }
        return read;
    }
}
