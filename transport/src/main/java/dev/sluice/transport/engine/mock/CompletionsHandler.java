package dev.sluice.transport.engine.mock;

import dev.sluice.transport.engine.Engine;
import dev.sluice.transport.engine.EngineQueue;
import dev.sluice.transport.engine.EngineRequest;
import dev.sluice.transport.engine.EngineStream;
import dev.sluice.transport.openai.CompletionHeader;
import dev.sluice.transport.openai.CompletionRequest;
import dev.sluice.transport.openai.CompletionRequestReader;
import dev.sluice.transport.openai.CompletionResponder;
import dev.sluice.transport.openai.OpenAiException;
import dev.sluice.transport.tokenize.PromptEncoder;
import dev.sluice.transport.tokenize.PromptException;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code POST /v1/chat/completions} and {@code POST /v1/completions}: parse, tokenize (a token-id prompt is taken as
 * it is), submit to the engine on rank 0, then either fold the tokens into one JSON body or stream one SSE event per
 * token. Runs on Helidon's virtual thread per request and blocks there on the engine's callbacks. A client that
 * disconnects is noticed at the next write of a stream, which cancels the engine request; a non-streaming request
 * runs to its end. Thread-safe.
 */
final class CompletionsHandler implements Handler {
    private static final AtomicLong IDS = new AtomicLong();
    private static final HeaderName X_REQUEST_ID = HeaderNames.create("x-request-id");

    private final CompletionRequest.Endpoint endpoint;
    private final Engine engine;
    private final PromptEncoder prompts;
    private final CompletionRequestReader reader;
    private final String modelName;

    CompletionsHandler(CompletionRequest.Endpoint endpoint, Engine engine, PromptEncoder prompts,
                       CompletionRequestReader reader, String modelName) {
        this.endpoint = endpoint;
        this.engine = engine;
        this.prompts = prompts;
        this.reader = reader;
        this.modelName = modelName;
    }

    @Override
    public void handle(ServerRequest req, ServerResponse res) throws InterruptedException {
        CompletionRequest request;
        int[] tokens;
        try {
            request = reader.read(endpoint, req.content().as(byte[].class));
            if (!request.model().equals(modelName)) {
                throw new OpenAiException(404, "The model `" + request.model()
                    + "` does not exist; this server serves `" + modelName + "`", "model", "model_not_found");
            }
            tokens = request.prompt().encode(prompts).tokens();
        } catch (PromptException e) {
            MockEngineServer.sendError(res, OpenAiException.invalid(e.getMessage(), e.param()));
            return;
        } catch (OpenAiException e) {
            MockEngineServer.sendError(res, e);
            return;
        }
        String requestId = req.headers().first(X_REQUEST_ID).orElseGet(
            () -> "mock-" + IDS.incrementAndGet());
        CompletionHeader header = CompletionHeader.of(endpoint, requestId, System.currentTimeMillis() / 1000,
            modelName);
        EngineQueue queue = new EngineQueue();
        EngineStream stream = engine.submit(new EngineRequest(requestId, tokens, request.maxTokens(), 0), queue);
        try {
            // One write per event, as vLLM sends them: what a frontend in front of it reads.
            CompletionResponder.respond(res, header, request, queue, CompletionResponder.NONE,
                failed -> engineError(failed.message()), CompletionResponder.Flushing.PER_EVENT);
        } catch (IOException | UncheckedIOException e) {
            // The client went away; the finally block frees the engine request.
        } finally {
            stream.cancel();
        }
    }

    /** The simulated engine fails only requests that cannot be served as given (too long, bad rank) or at stop. */
    static OpenAiException engineError(String message) {
        if (message.endsWith("stopped")) {
            return new OpenAiException(503, message, null, null);
        }
        return OpenAiException.invalid(message, null);
    }
}
