package dev.sluice.transport.tokenize.hf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.transport.tokenize.PromptException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Chat templates render as jinja2 renders them in the engines' environment. {@code jinja2-cases.json} holds
 * templates of the constructs real chat templates use (whitespace control, trim and lstrip around blocks and
 * comments, raw, namespaces, slices, Python string and dict methods, {@code tojson}, tests and {@code not} around
 * them, loops, macros with keyword arguments) with what jinja2 3.1.6 rendered in an
 * {@code ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)} with Hugging Face's {@code tojson}.
 */
class ChatTemplateTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path CASES = Path.of("src/test/resources/dev/sluice/transport/tokenize/hf/jinja2-cases.json");

    @Test
    void shouldRenderAsJinja2() throws Exception {
        List<String> differences = new ArrayList<>();
        JsonNode cases = JSON.readTree(CASES.toFile());
        for (JsonNode testCase : cases) {
            String template = testCase.get("template").asText();
            Map<String, Object> variables = JSON.convertValue(testCase.get("variables"), new TypeReference<>() {
            });
            String rendered = ChatTemplate.compile(template).render(variables);
            if (!rendered.equals(testCase.get("jinja2").asText())) {
                differences.add(template + "\n  jinja2: " + testCase.get("jinja2") + "\n  sluice: "
                    + JSON.writeValueAsString(rendered));
            }
        }
        assertEquals(List.of(), differences);
        assertTrue(cases.size() >= 44, cases.size() + " cases");
    }

    @Test
    void shouldRefuseTheConversationWithTheTemplatesOwnMessage() throws Exception {
        ChatTemplate template = ChatTemplate.compile("{% if messages[0]['role'] != 'user' %}"
            + "{{ raise_exception('Conversation roles must start with user') }}{% endif %}ok");
        assertEquals("ok", template.render(Map.of("messages", List.of(Map.of("role", "user")))));
        PromptException refused = assertThrows(PromptException.class, () -> template.render(Map.of("messages",
            List.of(Map.of("role", "assistant")))));
        assertEquals("the model's chat template refused the conversation: Conversation roles must start with user",
            refused.getMessage());
        assertEquals("messages", refused.param());
    }

    @Test
    void shouldRenderGenerationBlocksAndRefuseBrokenTemplatesAtCompileTime() throws Exception {
        assertEquals("<a>x</a>", ChatTemplate.compile("<a>{% generation %}{{ m }}{% endgeneration %}</a>")
            .render(Map.of("m", "x")));
        IllegalArgumentException broken = assertThrows(IllegalArgumentException.class,
            () -> ChatTemplate.compile("line one\n{% for m in messages %}{{ m.content }}"));
        assertTrue(broken.getMessage().startsWith("the chat template cannot be used: line 2: "),
            broken::getMessage);
    }
}
