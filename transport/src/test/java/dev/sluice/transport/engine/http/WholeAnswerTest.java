package dev.sluice.transport.engine.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.sluice.transport.engine.FinishReason;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Non-streamed completion answers to text, finish reason, usage and failures. */
class WholeAnswerTest {
    private static WholeAnswer parse(String body) {
        return WholeAnswer.parse(body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void shouldReadTheTextFinishReasonAndUsageOfACompletion() {
        WholeAnswer answer = parse("""
            {"id":"cmpl-1","object":"text_completion","choices":[{"index":0,"text":"Hello world",
            "finish_reason":"length"}],"usage":{"prompt_tokens":7,"completion_tokens":2,"total_tokens":9}}""");

        assertNull(answer.failure());
        assertEquals("Hello world", answer.text());
        assertEquals(FinishReason.LENGTH, answer.finishReason());
        assertEquals(7, answer.promptTokens());
        assertEquals(2, answer.completionTokens());
    }

    @Test
    void shouldReadTheChatShapeAndReportMissingUsageAsUnknown() {
        WholeAnswer answer = parse("""
            {"choices":[{"index":0,"message":{"role":"assistant","content":"Hi"},"finish_reason":"stop"}]}""");

        assertEquals("Hi", answer.text());
        assertEquals(FinishReason.STOP, answer.finishReason());
        assertEquals(-1, answer.promptTokens());
        assertEquals(-1, answer.completionTokens());
    }

    @Test
    void shouldFailAnErrorBodyWithTheEngineMessage() {
        WholeAnswer answer = parse("{\"error\":{\"message\":\"model overloaded\"}}");

        assertEquals("the engine failed the request: model overloaded", answer.failure());
    }

    @Test
    void shouldFailABodyThatIsNotACompletion() {
        assertEquals("the engine sent a malformed completion answer", parse("not json").failure());
        assertEquals("the engine sent a malformed completion answer", parse("{\"object\":\"list\"}").failure());
    }
}
