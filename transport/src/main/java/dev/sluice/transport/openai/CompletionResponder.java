package dev.sluice.transport.openai;

import dev.sluice.transport.engine.EngineQueue;
import dev.sluice.transport.engine.ErrorKind;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.util.function.Function;

/**
 * Writes one engine request's output as the OpenAI response: one JSON body, or Server-Sent Events ending with
 * {@code data: [DONE]} (and a usage chunk when asked), flushed whenever the engine has nothing more queued: one
 * event per flush while tokens come one at a time, every event queued meanwhile in one flush when they come
 * faster. A token's text is the engine's own when it sent text (remote engines), else the rendering of its id
 * ({@link TokenText}). A stream whose engine fails before its first token gets a plain error response with the
 * error's status, since nothing has been committed yet; a later failure becomes an error event. Runs on the HTTP
 * handler's virtual thread and blocks there on the engine's callbacks. Stateless.
 */
public final class CompletionResponder {
    /** How the engine request ended. */
    public sealed interface Outcome {
    }

    /** It finished; the counts come from the engine. */
    public record Finished(long promptTokens, long completionTokens) implements Outcome {
    }

    /** The engine failed it, for this kind of reason; the message is safe for a client and was sent as an error. */
    public record Failed(ErrorKind kind, String message) implements Outcome {
    }

    /** Lets the caller observe the stream while it is written. */
    public interface Hooks {
        /**
         * The engine request ended: called before the response's last bytes are written, so that anything the
         * client does once it has the whole answer (its next request, say) comes after this.
         */
        default void onEnd(Outcome outcome) {
        }
    }

    /** No hooks. */
    public static final Hooks NONE = new Hooks() { };

    /** When a stream's events are flushed to the client (each flush is one socket write and one HTTP chunk). */
    public enum Flushing {
        /** Whenever nothing more is queued: the events queued meanwhile leave together, none waits for another. */
        COALESCED,
        /** After every event, as engines such as vLLM send them: what the mock engine does. */
        PER_EVENT
    }

    private CompletionResponder() {
    }

    /**
     * Writes the whole response, a stream's events {@link Flushing#COALESCED}.
     *
     * @param engineError maps an engine failure to the error the client sees.
     * @throws IOException the client went away (the caller cancels the engine request).
     */
    public static Outcome respond(ServerResponse res, CompletionHeader header, CompletionRequest request,
                                  EngineQueue queue, Hooks hooks,
                                  Function<EngineQueue.Failed, OpenAiException> engineError)
        throws IOException, InterruptedException {
        return respond(res, header, request, queue, hooks, engineError, Flushing.COALESCED);
    }

    /**
     * Writes the whole response, a stream's events flushed as {@code flushing} says.
     *
     * @param engineError maps an engine failure to the error the client sees.
     * @throws IOException the client went away (the caller cancels the engine request).
     */
    public static Outcome respond(ServerResponse res, CompletionHeader header, CompletionRequest request,
                                  EngineQueue queue, Hooks hooks,
                                  Function<EngineQueue.Failed, OpenAiException> engineError, Flushing flushing)
        throws IOException, InterruptedException {
        return request.stream() ? stream(res, header, request.includeUsage(), queue, hooks, engineError, flushing)
            : whole(res, header, queue, hooks, engineError);
    }

    private static Outcome whole(ServerResponse res, CompletionHeader header, EngineQueue queue, Hooks hooks,
                                 Function<EngineQueue.Failed, OpenAiException> engineError)
        throws InterruptedException {
        StringBuilder text = new StringBuilder();
        long tokens = 0;
        while (true) {
            // Woken for the first token and for the end, not for each token between; the router hears of the first
            // token from the engine side (the frontend's PreemptionGate), not from here.
            switch (tokens == 0 ? queue.take() : queue.takeBatched()) {
                case EngineQueue.Token token -> {
                    text.append(piece(token, tokens++));
                }
                case EngineQueue.Finished done -> {
                    Finished finished = ended(hooks, new Finished(done.promptTokens(), done.completionTokens()));
                    res.header(HeaderNames.CONTENT_TYPE, "application/json");
                    res.send(OpenAiJson.completion(header, text.toString(), done.reason().wireName(),
                        done.promptTokens(), done.completionTokens()));
                    return finished;
                }
                case EngineQueue.Failed failed -> {
                    return sendError(res, failed, engineError, hooks);
                }
            }
        }
    }

    private static Outcome stream(ServerResponse res, CompletionHeader header, boolean includeUsage,
                                  EngineQueue queue, Hooks hooks,
                                  Function<EngineQueue.Failed, OpenAiException> engineError, Flushing flushing)
        throws IOException, InterruptedException {
        EngineQueue.Signal signal = queue.take();
        if (signal instanceof EngineQueue.Failed failed) {
            return sendError(res, failed, engineError, hooks);
        }
        res.header(HeaderNames.CONTENT_TYPE, SseFrames.CONTENT_TYPE);
        res.header(HeaderNames.CACHE_CONTROL, "no-cache");
        try (OutputStream out = res.outputStream()) {
            return events(out, signal, header, includeUsage, queue, hooks, engineError, flushing);
        }
    }

    /**
     * Writes the events of a stream from its first signal to its end. Coalesced, what is already queued goes out with
     * the event before it, in one flush; the writer flushes whenever the queue is empty before it waits, so no event
     * waits for one that has not arrived (the first token leaves at once).
     */
    static Outcome events(OutputStream out, EngineQueue.Signal first, CompletionHeader header, boolean includeUsage,
                          EngineQueue queue, Hooks hooks, Function<EngineQueue.Failed, OpenAiException> engineError,
                          Flushing flushing)
        throws IOException, InterruptedException {
        EngineQueue.Signal signal = first;
        StreamAnswer answer = new StreamAnswer(out, header, includeUsage);
        while (true) {
            switch (signal) {
                case EngineQueue.Token token -> answer.token(piece(token, answer.tokens()));
                case EngineQueue.Finished done -> {
                    Finished finished = ended(hooks, new Finished(done.promptTokens(), done.completionTokens()));
                    answer.finished(done.reason().wireName(), done.promptTokens(), done.completionTokens());
                    out.flush();
                    return finished;
                }
                case EngineQueue.Failed failed -> {
                    Failed end = ended(hooks, new Failed(failed.kind(), failed.message()));
                    answer.failed(engineError.apply(failed));
                    out.flush();
                    return end;
                }
            }
            signal = flushing == Flushing.COALESCED ? queue.poll() : null;
            if (signal == null) {
                out.flush();
                signal = queue.take();
            }
        }
    }

    private static String piece(EngineQueue.Token token, long index) {
        return token.text() != null ? token.text() : TokenText.piece(token.tokenId(), index);
    }

    private static Outcome sendError(ServerResponse res, EngineQueue.Failed failed,
                                     Function<EngineQueue.Failed, OpenAiException> engineError, Hooks hooks) {
        Failed end = ended(hooks, new Failed(failed.kind(), failed.message()));
        OpenAiException error = engineError.apply(failed);
        res.status(error.httpStatus());
        res.header(HeaderNames.CONTENT_TYPE, "application/json");
        res.send(OpenAiJson.error(error));
        return end;
    }

    private static <T extends Outcome> T ended(Hooks hooks, T outcome) {
        hooks.onEnd(outcome);
        return outcome;
    }
}
