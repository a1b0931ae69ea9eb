package dev.sluice.transport.tokenize.hf;

import com.hubspot.jinjava.Jinjava;
import com.hubspot.jinjava.JinjavaConfig;
import com.hubspot.jinjava.LegacyOverrides;
import com.hubspot.jinjava.el.JinjavaInterpreterResolver;
import com.hubspot.jinjava.interpret.RenderResult;
import com.hubspot.jinjava.interpret.TemplateError;
import com.hubspot.jinjava.lib.fn.ELFunctionDefinition;
import dev.sluice.transport.tokenize.PromptException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import jinjava.javax.el.CompositeELResolver;

/**
 * A model's chat template, rendered with Jinjava configured as the engines configure jinja2 for chat templates
 * (Hugging Face's {@code apply_chat_template}): {@code trim_blocks} and {@code lstrip_blocks}, no trailing newline
 * kept, a {@code raise_exception(message)} that refuses the conversation, {@code strftime_now(format)}, the
 * {@code tojson} of {@link PyJson}, the {@code {% generation %}} block, loop controls. What Jinjava would read
 * differently from jinja2 is bridged: whitespace, keyword arguments and slices in the source ({@link JinjaSource},
 * {@link TemplateRewriter}), Python's string and dict methods ({@link PyMethods}), printed booleans
 * ({@link PyInterpreter}). Templates cannot reach Java: Jinjava allows no method calls but its own
 * allow-list and these. Immutable and thread-safe: each render has its own interpreter.
 */
final class ChatTemplate {
    /** A rendered prompt larger than this is refused; far beyond any request body the frontend accepts. */
    private static final long MAX_OUTPUT_CHARS = 64L << 20;
    private static final Jinjava JINJAVA = jinjava();

    private final String source;

    private ChatTemplate(String source) {
        this.source = source;
    }

    /**
     * Compiles a template and renders it once on a one-message conversation, so that a template Jinjava cannot
     * parse fails at startup, not on the first request.
     *
     * @throws IllegalArgumentException naming the line and what is wrong.
     */
    static ChatTemplate compile(String template) {
        ChatTemplate compiled = new ChatTemplate(JinjaSource.prepare(template));
        Map<String, Object> probe = Map.of("messages", List.of(Map.of("role", "user", "content", "hi")),
            "add_generation_prompt", true);
        RenderResult result = JINJAVA.renderForResult(compiled.source, probe);
        for (TemplateError error : result.getErrors()) {
            if (error.getSeverity() == TemplateError.ErrorType.FATAL && raised(error) == null) {
                throw new IllegalArgumentException("the chat template cannot be used: line " + error.getLineno()
                    + ": " + error.getMessage());
            }
        }
        return compiled;
    }

    /**
     * Renders the template with {@code variables} ({@code messages}, {@code tools}, {@code add_generation_prompt},
     * the special tokens, the request's extra variables).
     *
     * @throws PromptException the template called {@code raise_exception} (its message), or failed on this input.
     */
    String render(Map<String, Object> variables) throws PromptException {
        RenderResult result = JINJAVA.renderForResult(source, variables);
        List<String> fatal = new ArrayList<>();
        for (TemplateError error : result.getErrors()) {
            String raised = raised(error);
            if (raised != null) {
                throw new PromptException("the model's chat template refused the conversation: " + raised,
                    "messages");
            }
            if (error.getSeverity() == TemplateError.ErrorType.FATAL) {
                fatal.add("line " + error.getLineno() + ": " + error.getMessage());
            }
        }
        if (!fatal.isEmpty()) {
            throw new PromptException("the model's chat template failed on these messages: " + String.join("; ",
                fatal), "messages");
        }
        return result.getOutput();
    }

    /** The message of a {@code raise_exception} call behind {@code error}, or {@code null}. */
    private static String raised(TemplateError error) {
        for (Throwable cause = error.getException(); cause != null; cause = cause.getCause()) {
            if (cause instanceof TemplateFunctions.Raised raised) {
                return raised.getMessage();
            }
        }
        return null;
    }

    private static Jinjava jinjava() {
        CompositeELResolver resolver = new CompositeELResolver();
        resolver.add(new PyMethods());
        resolver.add(JinjavaInterpreterResolver.DEFAULT_RESOLVER_READ_ONLY);
        LegacyOverrides python = LegacyOverrides.newBuilder()
            .withParseWhitespaceControlStrictly(true)
            .withUseTrimmingForNotesAndExpressions(true)
            .withUseNaturalOperatorPrecedence(true)
            .withUsePyishObjectMapper(true)
            .withKeepNullableLoopValues(true)
            .withEvaluateMapKeys(true)
            .withIterateOverMapKeys(true)
            .withHandleBackslashInQuotesOnly(true)
            .build();
        JinjavaConfig config = JinjavaConfig.newBuilder()
            // trim_blocks and lstrip_blocks are applied to the source, as jinja2 applies them (JinjaSource).
            .withTrimBlocks(false)
            .withLstripBlocks(false)
            .withLegacyOverrides(python)
            .withElResolver(resolver)
            .withMaxOutputSize(MAX_OUTPUT_CHARS)
            // jinja2 drops a trailing newline of the template's source, not of its output (see JinjaSource).
            .withKeepTrailingNewline(true)
            .withInterperterFactory(PyInterpreter.FACTORY)
            .build();
        Jinjava jinjava = new Jinjava(config);
        jinjava.getGlobalContext().registerFunction(new ELFunctionDefinition("", "raise_exception",
            TemplateFunctions.class, "raiseException", Object.class));
        jinjava.getGlobalContext().registerFunction(new ELFunctionDefinition("", "strftime_now",
            TemplateFunctions.class, "strftimeNow", String.class));
        jinjava.getGlobalContext().registerFilter(new PyJson());
        jinjava.getGlobalContext().registerTag(new GenerationTag());
        return jinjava;
    }
}
