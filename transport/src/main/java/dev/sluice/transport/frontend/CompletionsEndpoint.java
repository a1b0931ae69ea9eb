package dev.sluice.transport.frontend;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.kv.BlockHasher;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.transport.engine.Engine;
import dev.sluice.transport.engine.EngineQueue;
import dev.sluice.transport.engine.EngineRequest;
import dev.sluice.transport.engine.EngineStream;
import dev.sluice.transport.engine.ErrorKind;
import dev.sluice.transport.openai.CompletionHeader;
import dev.sluice.transport.openai.CompletionRequest;
import dev.sluice.transport.openai.CompletionRequestReader;
import dev.sluice.transport.openai.CompletionResponder;
import dev.sluice.transport.openai.OpenAiException;
import dev.sluice.transport.tokenize.EncodedPrompt;
import dev.sluice.transport.tokenize.PromptEncoder;
import dev.sluice.transport.tokenize.PromptException;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Headers;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code POST /v1/chat/completions} and {@code POST /v1/completions}: parse, find the model asked for (each has its
 * own router and engines, {@link ModelServing}), tokenize with its {@link PromptEncoder} (a chat through its chat
 * template; token-id prompts as they are), ask the model's router for admission (the handler's virtual thread parks
 * meanwhile), then either answer the rejection or run the request on the chosen engine and stream it back,
 * reporting its lifecycle to the router: responding at the first token, completed with prompt + completion tokens,
 * aborted when the engine fails or the client goes away (the engine request is cancelled, the booking released).
 * Each engine outcome also goes to the worker's {@link WorkerHealth}; when every worker is unhealthy, the router's
 * "no workers" rejection is answered as {@code no_healthy_workers}. Dynamo's priority, policy-class, session and
 * tenant headers are read only from {@link TrustedSources trusted} clients; others have them ignored and counted.
 * Thread-safe.
 */
final class CompletionsEndpoint implements Handler {
    private static final AtomicLong IDS = new AtomicLong();
    /** A request still running when the grace period of a shutdown ends: its engine request is stopped. */
    static final OpenAiException SHUTTING_DOWN = new OpenAiException(503, "The server is shutting down and "
        + "the request did not finish within its grace period", null, "shutting_down");
    static final HeaderName DECISION = HeaderNames.create("x-sluice-decision");
    static final HeaderName POLICY_CLASS = HeaderNames.create("x-sluice-policy-class");
    /** Sluice's own id for the request, unique; the journal's {@code requestId}. */
    static final HeaderName SLUICE_REQUEST_ID = HeaderNames.create("x-sluice-request-id");
    /** The router's rejection reason when it has no worker to place a request on. */
    static final String NO_WORKERS = "no_endpoints";

    /** One model as the endpoint uses it. */
    record Served(ModelServing serving, BlockHasher hasher) {
    }

    private final CompletionRequest.Endpoint endpoint;
    private final Map<String, Served> models;
    private final CompletionRequestReader reader;
    private final long maxBodyBytes;
    private final int overloadStatus;
    private final HeaderName tenantHeader;
    private final TrustedSources trustedSources;
    private final LargeBodyGate largeBodies;

    CompletionsEndpoint(CompletionRequest.Endpoint endpoint, FrontendSettings settings, List<ModelServing> models,
                        LargeBodyGate largeBodies) {
        this.endpoint = endpoint;
        this.largeBodies = largeBodies;
        Map<String, Served> byName = new LinkedHashMap<>();
        for (ModelServing model : models) {
            byName.put(model.name(), new Served(model, new BlockHasher(model.model().engines().blockSize())));
        }
        this.models = Collections.unmodifiableMap(byName);
        this.reader = new CompletionRequestReader(settings.defaultMaxTokens());
        this.maxBodyBytes = settings.maxBodyBytes();
        this.overloadStatus = settings.overloadStatus();
        this.tenantHeader = settings.tenantHeader();
        this.trustedSources = settings.trustedSources();
    }

    @Override
    public void handle(ServerRequest req, ServerResponse res) {
        // Ours, unique: the router's, the plugins', the engine's and the journal's key. The client's x-request-id
        // is only its label (echoed, journaled): a client that reuses another's cannot fail that one's request.
        String requestId = newRequestId();
        res.header(SLUICE_REQUEST_ID, requestId);
        String clientId;
        try {
            clientId = DynamoHeaders.clientRequestId(req.headers());
        } catch (OpenAiException e) {
            ErrorResponses.send(res, e);
            return;
        }
        res.header(DynamoHeaders.REQUEST_ID, clientId != null ? clientId : requestId);
        LargeBodyGate.Turn turn;
        try {
            // Before the body is read: reading, parsing and tokenizing a large one is the expensive part.
            turn = largeBodies.enter(req.headers().contentLength());
        } catch (OpenAiException e) {
            res.header(HeaderNames.RETRY_AFTER, "1");
            ErrorResponses.send(res, e);
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        Prepared prepared;
        try (turn) {
            prepared = prepare(requestId, clientId, req.headers(), RequestBody.read(req, maxBodyBytes),
                req.remotePeer().address());
        } catch (OpenAiException e) {
            ErrorResponses.send(res, e);
            return;
        }
        CompletionRequest request = prepared.request();
        EncodedPrompt prompt = prepared.prompt();
        Served served = prepared.served();
        ModelServing model = served.serving();
        ModelRouter router = model.router();
        AdmissionTicket ticket = new AdmissionTicket();
        long lifecycle = router.submit(prepared.admission(), ticket);
        try {
            ticket.await();
        } catch (InterruptedException e) {
            router.aborted(lifecycle, e);
            Thread.currentThread().interrupt();
            return;
        }
        decision(res, ticket);
        if (ticket.error() != null) {
            ErrorResponses.send(res, ErrorResponses.rejection(ErrorResponses.retryAfter(res), model, ticket.error(),
                overloadStatus));
            return;
        }
        model.answering().incrementAndGet();
        try {
            serve(res, model, request, requestId, prompt, lifecycle, ticket);
        } finally {
            model.answering().decrementAndGet();
        }
    }

    /** Sluice's own id for a new request, unique. */
    static String newRequestId() {
        return "sluice-" + Long.toHexString(System.nanoTime()) + "-" + IDS.incrementAndGet();
    }

    /** The status of capacity rejections. */
    int overloadStatus() {
        return overloadStatus;
    }

    /** A request read, its model found, its prompt in the model's tokens and its admission request built. */
    record Prepared(CompletionRequest request, Served served, EncodedPrompt prompt, AdmissionRequest admission) {
        ModelServing model() {
            return served.serving();
        }
    }

    /**
     * Parses {@code body}, finds the model it asks for and encodes its prompt, and builds its admission request with
     * Dynamo's headers when {@code peer} is trusted (else counts them as ignored). Any thread.
     *
     * @throws OpenAiException the client's error: a malformed request, a model not served, a prompt the model cannot
     *                         take, a malformed header.
     */
    Prepared prepare(String requestId, String clientId, Headers headers, byte[] body, SocketAddress peer)
        throws OpenAiException {
        CompletionRequest request = reader.read(endpoint, body);
        Served served = models.get(request.model());
        if (served == null) {
            throw new OpenAiException(404, "The model `" + request.model()
                + "` is not served here; this frontend serves " + served(), "model", "model_not_found");
        }
        EncodedPrompt prompt = encode(request, served.serving().model().prompts());
        AdmissionRequest.Builder builder = AdmissionRequest.builder(requestId).clientRequestId(clientId)
            .promptTokens(prompt.tokens(), served.hasher());
        if (trustedSources.trusts(peer)) {
            DynamoHeaders.apply(headers, builder, tenantHeader);
        } else {
            // An untrusted client must not jump the queue or spend another tenant's budget.
            served.serving().metrics().untrustedHeaders(DynamoHeaders.privileged(headers, tenantHeader));
        }
        return new Prepared(request, served, prompt, builder.build());
    }

    /**
     * Tells the client what admission decided: {@code x-sluice-decision} ({@code dispatched; waited_ms=12.5} from
     * its arrival at the router to its dispatch, or {@code rejected; code=deadline_exceeded}) and
     * {@code x-sluice-policy-class}, the class it was admitted or rejected under (absent when it had none).
     */
    private static void decision(ServerResponse res, AdmissionTicket ticket) {
        res.header(DECISION, ticket.error() != null ? rejected(ticket.error()) : dispatched(ticket.waitedNanos()));
        if (ticket.policyClass() != null) {
            res.header(POLICY_CLASS, ticket.policyClass());
        }
    }

    /** The decision header of a rejection: {@code rejected; code=deadline_exceeded}. */
    static String rejected(AdmissionError error) {
        return "rejected; code=" + error.reason();
    }

    /** The decision header of a dispatch, {@code waitedNanos} after its arrival: {@code dispatched; waited_ms=12.5}. */
    static String dispatched(long waitedNanos) {
        return "dispatched; waited_ms=" + tenths(waitedNanos);
    }

    /** Nanoseconds as milliseconds with one decimal, {@code 12.5} (String.format costs microseconds per call). */
    static String tenths(long nanos) {
        long tenths = Math.round(Math.max(0, nanos) / 1e5);
        return tenths / 10 + "." + tenths % 10;
    }

    /** The models served, for the client's error: {@code `a`, `b`}. */
    private String served() {
        List<String> names = new ArrayList<>(models.size());
        for (String name : models.keySet()) {
            names.add("`" + name + "`");
        }
        return String.join(", ", names);
    }

    /** The request's prompt in the model's tokens; what the model cannot take as given is the client's 400. */
    private static EncodedPrompt encode(CompletionRequest request, PromptEncoder prompts) throws OpenAiException {
        try {
            return request.prompt().encode(prompts);
        } catch (PromptException e) {
            throw OpenAiException.invalid(e.getMessage(), e.param());
        }
    }

    private void serve(ServerResponse res, ModelServing model, CompletionRequest request, String requestId,
                       EncodedPrompt prompt, long lifecycle, AdmissionTicket ticket) {
        ModelRouter router = model.router();
        int workerId = (int) ticket.worker().workerId();
        EngineQueue queue = new EngineQueue();
        // The router hears of the first token when the engine sends it: a whole answer's handler takes it only at
        // the end (it may even have read the whole answer itself), and the worker's prefill is over long before.
        PreemptionGate gate = new PreemptionGate(ticket, queue, () -> router.responding(lifecycle));
        EngineStream stream;
        try {
            Engine engine = model.engines().engine(workerId);
            stream = engine.submit(new EngineRequest(requestId, prompt.tokens(), request.maxTokens(),
                ticket.worker().dpRank(), prompt.text()), gate);
            gate.stream(stream);
        } catch (RuntimeException e) {
            router.aborted(lifecycle, e);
            ErrorResponses.send(res, ErrorResponses.ENGINE_UNAVAILABLE);
            return;
        }
        CompletionHeader header = CompletionHeader.of(endpoint, requestId, System.currentTimeMillis() / 1000,
            model.name());
        boolean[] reported = new boolean[1];
        CompletionResponder.Hooks hooks = new CompletionResponder.Hooks() {
            @Override
            public void onEnd(CompletionResponder.Outcome outcome) {
                // Before the client has the last bytes: a journal cut short then never shows a request answered
                // in full as unfinished, and the client's next request comes after this one's end.
                reported[0] = true;
                if (ticket.preemption() == null) {
                    report(model, lifecycle, workerId, outcome);
                }
            }
        };
        try {
            // A preempted request's lifecycle has ended at the router: it is answered its typed, retriable error.
            CompletionResponder.respond(res, header, request, queue, hooks, failed -> ticket.preemption() != null
                ? ErrorResponses.withRetryAfter(ErrorResponses.retryAfter(res), ticket.preemption(), overloadStatus)
                : model.stopping() ? SHUTTING_DOWN : engineError(failed));
        } catch (IOException | UncheckedIOException e) {
            stream.cancel();
            if (!reported[0]) {
                reported[0] = true;
                router.aborted(lifecycle, new CancellationException("client disconnected"));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (!reported[0]) {
                stream.cancel();
                router.aborted(lifecycle, new CancellationException("handler stopped"));
            }
        }
    }

    /** The engine request's end, to the router and to the worker's health. */
    static void report(ModelServing model, long lifecycle, int workerId,
                               CompletionResponder.Outcome outcome) {
        ModelRouter router = model.router();
        WorkerHealth health = model.health();
        EngineConfigErrors configErrors = model.configErrors();
        if (outcome instanceof CompletionResponder.Finished done) {
            router.completed(lifecycle, done.promptTokens() + done.completionTokens());
            health.onSuccess(workerId);
            configErrors.onSuccess(workerId);
        } else {
            CompletionResponder.Failed failed = (CompletionResponder.Failed) outcome;
            router.aborted(lifecycle, new EngineFailure(failed.message()));
            // A request the engine refused as given, or a sluice set up wrong for it, says nothing of its health.
            if (failed.kind() == ErrorKind.MISCONFIGURED) {
                configErrors.onMisconfigured(workerId, failed.message());
            } else if (failed.kind() != ErrorKind.REJECTED) {
                health.onFailure(workerId, failed.message());
            }
        }
    }

    /** An engine's failure, for the router's Aborted event and the journal. */
    static final class EngineFailure extends Exception {
        private static final long serialVersionUID = 1L;

        EngineFailure(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * The client's error for an engine failure: 400 when the engine refused the request as given, 503 when it is
     * unreachable or overloaded, 504 when it sent no token in time, 502 {@code engine_misconfigured} when sluice is
     * set up wrong for it (the model it asks for), else 502. The kinds other than FAILED come only from remote
     * engines, whose messages already say what happened.
     */
    static OpenAiException engineError(EngineQueue.Failed failed) {
        String message = failed.message();
        return switch (failed.kind()) {
            case REJECTED -> new OpenAiException(400, message, null, "engine_rejected");
            case UNAVAILABLE -> new OpenAiException(503, message, null, "engine_unavailable");
            case TIMEOUT -> new OpenAiException(504, message, null, "engine_timeout");
            case MISCONFIGURED -> new OpenAiException(502, "sluice is misconfigured for its engine: "
                + message, null, "engine_misconfigured");
            case FAILED -> new OpenAiException(502, "the engine failed the request: " + message,
                null, "engine_error");
        };
    }
}
