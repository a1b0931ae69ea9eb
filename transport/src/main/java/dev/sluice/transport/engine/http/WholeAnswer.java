package dev.sluice.transport.engine.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.transport.engine.FinishReason;
import java.io.IOException;

/**
 * A non-streamed completion answer ({@code stream: false}) read in one piece: {@code choices[0].text}
 * ({@code /v1/completions}) or {@code choices[0].message.content} (the chat shape), its finish reason and its usage;
 * or why it is not one (an {@code error} body, not JSON, no {@code choices}). Immutable.
 *
 * @param text             the generated text, {@code ""} when there is none.
 * @param finishReason     the finish reason, or {@code null} when the answer has none.
 * @param promptTokens     the usage's prompt tokens, or -1 when not reported.
 * @param completionTokens the usage's completion tokens, or -1 when not reported.
 * @param failure          a client-safe message when the body is not a completion answer, else {@code null}.
 */
record WholeAnswer(String text, FinishReason finishReason, long promptTokens, long completionTokens,
                   String failure) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Reads {@code body}; never throws. */
    static WholeAnswer parse(byte[] body) {
        JsonNode answer;
        try {
            answer = JSON.readTree(body);
        } catch (IOException e) {
            answer = null;
        }
        if (answer != null && answer.has("error")) {
            return failed("the engine failed the request" + CompletionStreamAdapter.upstreamMessage(answer));
        }
        if (answer == null || !answer.isObject() || !answer.path("choices").isArray()) {
            return failed("the engine sent a malformed completion answer");
        }
        JsonNode choice = answer.path("choices").path(0);
        JsonNode piece = choice.has("text") ? choice.get("text") : choice.path("message").path("content");
        FinishReason reason = choice.path("finish_reason").isTextual()
            ? CompletionStreamAdapter.finishReason(choice.get("finish_reason").asText()) : null;
        JsonNode usage = answer.path("usage");
        return new WholeAnswer(piece.isTextual() ? piece.asText() : "", reason,
            usage.path("prompt_tokens").asLong(-1), usage.path("completion_tokens").asLong(-1), null);
    }

    private static WholeAnswer failed(String message) {
        return new WholeAnswer("", null, -1, -1, message);
    }
}
