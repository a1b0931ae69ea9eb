package dev.sluice.transport.frontend;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.AdmissionListener;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.transport.engine.EngineListener;
import dev.sluice.transport.engine.EngineQueue;
import dev.sluice.transport.engine.EngineRequest;
import dev.sluice.transport.engine.EngineStream;
import dev.sluice.transport.engine.ErrorKind;
import dev.sluice.transport.engine.FinishReason;
import dev.sluice.transport.openai.CompletionHeader;
import dev.sluice.transport.openai.CompletionRequest;
import dev.sluice.transport.openai.CompletionResponder;
import dev.sluice.transport.openai.OpenAiException;
import dev.sluice.transport.openai.OpenAiJson;
import dev.sluice.transport.openai.StreamAnswer;
import dev.sluice.transport.openai.TokenText;
import dev.sluice.transport.tokenize.EncodedPrompt;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CancellationException;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One admitted-or-not completion request on an event-loop connection, from its submission to the router to its
 * last byte, as {@link CompletionsEndpoint} serves it on a virtual thread: the decision headers, the rejection
 * answered, or the request run on the chosen engine and its answer written (a stream's events flushed once per turn
 * of the loop, a whole answer at the end), its lifecycle reported to the router (responding at the first token,
 * completed or aborted) and its end to the worker's health before the client has the last bytes. A preemption and
 * the engine's first item race atomically, as in {@link AdmissionTicket}: whichever comes first wins.
 *
 * <p>Threads: every step runs on the connection's loop. The router's callbacks (its scheduler thread) hop onto it
 * when they come from elsewhere; so do the engine's (from its own thread; on the shared loops, they come on this one),
 * a burst of them in one hop. Ends in exactly one of: a rejection, completed, aborted (engine failure, preemption,
 * shutdown, or the client gone).
 */
final class LoopCompletion implements AdmissionListener, EngineListener {
    private static final int OPEN = 0;
    private static final int STREAMING = 1;
    private static final int PREEMPTED = 2;

    private final CompletionsEndpoint endpoint;
    private final ModelServing model;
    private final CompletionRequest request;
    private final EncodedPrompt prompt;
    private final String requestId;
    private final LoopAnswer answer;
    private final EventLoop loop;
    private final AtomicInteger response = new AtomicInteger(OPEN);
    /** The engine's items made on another thread, in order, and whether the loop is yet to take them. */
    private final Queue<Object> handed = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean handing = new AtomicBoolean();
    private volatile AdmissionError preemption;
    private long lifecycle = -1;
    private int workerId = -1;
    private EngineStream stream;
    private CompletionHeader header;
    private StreamAnswer events;
    private StringBuilder whole;
    private long tokens;
    private boolean flushQueued;
    private boolean answering;
    private boolean ended;

    LoopCompletion(CompletionsEndpoint endpoint, ModelServing model, CompletionRequest request, EncodedPrompt prompt,
                   String requestId, LoopAnswer answer, EventLoop loop) {
        this.endpoint = endpoint;
        this.model = model;
        this.request = request;
        this.prompt = prompt;
        this.requestId = requestId;
        this.answer = answer;
        this.loop = loop;
    }

    /** The lifecycle the router gave the request on submission. */
    void submitted(long lifecycleId) {
        lifecycle = lifecycleId;
    }

    @Override
    public void onDispatched(long lifecycleId, WorkerWithDpRank worker) {
        onDispatched(lifecycleId, worker, null, 0);
    }

    @Override
    public void onDispatched(long lifecycleId, WorkerWithDpRank worker, String admittedUnder, long waited) {
        onLoop(() -> dispatched(lifecycleId, worker, admittedUnder, waited));
    }

    @Override
    public void onRejected(long lifecycleId, AdmissionError error) {
        onRejected(lifecycleId, error, null);
    }

    @Override
    public void onRejected(long lifecycleId, AdmissionError error, String rejectedIn) {
        onLoop(() -> rejected(lifecycleId, error, rejectedIn));
    }

    /** The router wants the capacity back: granted unless the engine's first item came first (scheduler thread). */
    @Override
    public boolean onPreempted(long lifecycleId, AdmissionError cause) {
        preemption = cause;
        if (!response.compareAndSet(OPEN, PREEMPTED)) {
            return false;
        }
        onLoop(this::preempted);
        return true;
    }

    private void onLoop(Runnable step) {
        if (loop.inEventLoop()) {
            step.run();
        } else {
            loop.execute(step);
        }
    }

    private void rejected(long lifecycleId, AdmissionError error, String rejectedIn) {
        lifecycle = lifecycleId;
        ended = true;
        answer.header(CompletionsEndpoint.DECISION.defaultCase(), CompletionsEndpoint.rejected(error));
        if (rejectedIn != null) {
            answer.header(CompletionsEndpoint.POLICY_CLASS.defaultCase(), rejectedIn);
        }
        answer.error(ErrorResponses.rejection(this::retryAfter, model, error, endpoint.overloadStatus()));
    }

    private void retryAfter(String seconds) {
        answer.header("Retry-After", seconds);
    }

    private void dispatched(long lifecycleId, WorkerWithDpRank worker, String admittedUnder, long waitedNanos) {
        lifecycle = lifecycleId;
        answer.header(CompletionsEndpoint.DECISION.defaultCase(), CompletionsEndpoint.dispatched(waitedNanos));
        if (admittedUnder != null) {
            answer.header(CompletionsEndpoint.POLICY_CLASS.defaultCase(), admittedUnder);
        }
        ModelRouter router = model.router();
        if (ended) {
            // The client went while the request waited for admission.
            router.aborted(lifecycle, new CancellationException("client disconnected"));
            return;
        }
        if (response.get() == PREEMPTED) {
            return;
        }
        workerId = (int) worker.workerId();
        model.answering().incrementAndGet();
        answering = true;
        header = CompletionHeader.of(request.endpoint(), requestId, System.currentTimeMillis() / 1000, model.name());
        if (request.stream()) {
            events = new StreamAnswer(answer.stream(), header, request.includeUsage());
        } else {
            whole = new StringBuilder();
        }
        try {
            stream = model.engines().engine(workerId).submit(new EngineRequest(requestId, prompt.tokens(),
                request.maxTokens(), worker.dpRank(), prompt.text()), this);
        } catch (RuntimeException e) {
            ended = true;
            router.aborted(lifecycle, e);
            unanswering();
            answer.error(ErrorResponses.ENGINE_UNAVAILABLE);
            return;
        }
        if (response.get() == PREEMPTED) {
            // Preempted between the submission and now: the preemption's step found no stream to cancel.
            stream.cancel();
        }
    }

    private void preempted() {
        if (ended) {
            return;
        }
        ended = true;
        if (stream != null) {
            stream.cancel();
        }
        unanswering();
        // The lifecycle has ended at the router: the client gets the typed, retriable error.
        answer.error(ErrorResponses.withRetryAfter(this::retryAfter, preemption, endpoint.overloadStatus()));
    }

    @Override
    public void onToken(int tokenId) {
        if (loop.inEventLoop()) {
            piece(null, tokenId);
        } else {
            hand(new Token(null, tokenId));
        }
    }

    @Override
    public void onText(String text) {
        if (loop.inEventLoop()) {
            piece(text, EngineListener.UNKNOWN_TOKEN_ID);
        } else {
            hand(new Token(text, EngineListener.UNKNOWN_TOKEN_ID));
        }
    }

    /** A token handed over from the engine's thread. */
    private record Token(String text, int tokenId) {
    }

    /**
     * Hands an engine item made on another thread to the loop: the items that come before the loop takes them go in
     * one turn of it, so that a burst of tokens wakes it once (and leaves in one write), not once per token.
     */
    private void hand(Object item) {
        handed.add(item);
        if (handing.compareAndSet(false, true)) {
            loop.execute(this::takeHanded);
        }
    }

    private void takeHanded() {
        handing.set(false);
        Object item;
        while ((item = handed.poll()) != null) {
            switch (item) {
                case Token token -> piece(token.text(), token.tokenId());
                case Runnable end -> end.run();
                default -> throw new IllegalStateException("not an engine item: " + item);
            }
        }
    }

    private void piece(String text, int tokenId) {
        if (ended || !claimStreaming()) {
            return;
        }
        if (tokens == 0) {
            model.router().responding(lifecycle);
        }
        String piece = text != null ? text : TokenText.piece(tokenId, tokens);
        tokens++;
        if (events == null) {
            whole.append(piece);
            return;
        }
        write(() -> events.token(piece));
        if (!flushQueued) {
            // Events that come in one turn of the loop leave in one write.
            flushQueued = true;
            loop.execute(this::flush);
        }
    }

    private boolean claimStreaming() {
        return response.compareAndSet(OPEN, STREAMING) || response.get() == STREAMING;
    }

    private void flush() {
        flushQueued = false;
        answer.flush();
    }

    @Override
    public void onFinished(FinishReason reason, long promptTokens, long completionTokens) {
        if (loop.inEventLoop()) {
            finished(reason, promptTokens, completionTokens);
        } else {
            hand((Runnable) () -> finished(reason, promptTokens, completionTokens));
        }
    }

    private void finished(FinishReason reason, long promptTokens, long completionTokens) {
        if (ended || !claimStreaming()) {
            return;
        }
        ended = true;
        // Before the client has the last bytes: its next request comes after this one's end.
        CompletionsEndpoint.report(model, lifecycle, workerId, new CompletionResponder.Finished(promptTokens,
            completionTokens));
        unanswering();
        if (events == null) {
            answer.whole(HttpResponseStatus.OK, OpenAiJson.completion(header, whole.toString(), reason.wireName(),
                promptTokens, completionTokens));
            return;
        }
        write(() -> events.finished(reason.wireName(), promptTokens, completionTokens));
        answer.end();
    }

    @Override
    public void onError(String message) {
        onError(ErrorKind.FAILED, message);
    }

    @Override
    public void onError(ErrorKind kind, String message) {
        if (loop.inEventLoop()) {
            failed(kind, message);
        } else {
            hand((Runnable) () -> failed(kind, message));
        }
    }

    private void failed(ErrorKind kind, String message) {
        if (ended || response.get() == PREEMPTED) {
            return;
        }
        ended = true;
        CompletionsEndpoint.report(model, lifecycle, workerId, new CompletionResponder.Failed(kind, message));
        unanswering();
        OpenAiException error = model.stopping() ? CompletionsEndpoint.SHUTTING_DOWN
            : CompletionsEndpoint.engineError(new EngineQueue.Failed(kind, message));
        if (answer.streaming()) {
            write(() -> events.failed(error));
            answer.end();
        } else {
            answer.error(error);
        }
    }

    /** The client went: the engine request is cancelled and the lifecycle aborted (when it was dispatched). */
    void clientGone() {
        answer.drop();
        if (ended) {
            return;
        }
        ended = true;
        if (stream != null) {
            stream.cancel();
        }
        if (answering) {
            unanswering();
            model.router().aborted(lifecycle, new CancellationException("client disconnected"));
        }
    }

    private void unanswering() {
        if (answering) {
            answering = false;
            model.answering().decrementAndGet();
        }
    }

    /** A write into the stream's buffer, which cannot fail with an I/O error. */
    private interface BufferWrite {
        void run() throws IOException;
    }

    private static void write(BufferWrite write) {
        try {
            write.run();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
