package dev.sluice.transport.frontend;

import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.kv.BlockHasher;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.transport.engine.Engine;
import dev.sluice.transport.engine.EngineQueue;
import dev.sluice.transport.engine.EngineRequest;
import dev.sluice.transport.engine.EngineStream;
import dev.sluice.transport.engine.ErrorKind;
import dev.sluice.transport.metrics.RouterMetrics;
import dev.sluice.transport.openai.CompletionHeader;
import dev.sluice.transport.openai.CompletionRequest;
import dev.sluice.transport.openai.CompletionRequestReader;
import dev.sluice.transport.openai.CompletionResponder;
import dev.sluice.transport.openai.OpenAiException;
import dev.sluice.transport.tokenize.EncodedPrompt;
import dev.sluice.transport.tokenize.PromptEncoder;
import dev.sluice.transport.tokenize.PromptException;
import io.helidon.http.HeaderName;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code POST /v1/chat/completions} and {@code POST /v1/completions}: parse, tokenize with the model's
 * {@link PromptEncoder} (a chat through its chat template; token-id prompts as they are), ask the router for
 * admission (the handler's virtual thread parks meanwhile), then either answer the rejection or run the request on
 * the chosen engine and stream it back, reporting its lifecycle to the router: responding at the first token,
 * completed with prompt + completion tokens, aborted when the engine fails or the client goes away (the engine
 * request is cancelled, the booking released). Each engine outcome also goes to the worker's {@link WorkerHealth};
 * when every worker is unhealthy, the router's "no workers" rejection is answered as {@code no_healthy_workers}.
 * Dynamo's priority, policy-class, session and tenant headers are read only from {@link TrustedSources trusted}
 * clients; others have them ignored and counted. Thread-safe.
 */
final class CompletionsEndpoint implements Handler {
    private static final AtomicLong IDS = new AtomicLong();
    /** The router's rejection reason when it has no worker to place a request on. */
    private static final String NO_WORKERS = "no_endpoints";

    private final CompletionRequest.Endpoint endpoint;
    private final ModelRouter router;
    private final List<Engine> engines;
    private final PromptEncoder prompts;
    private final BlockHasher hasher;
    private final CompletionRequestReader reader;
    private final String modelName;
    private final long maxBodyBytes;
    private final int overloadStatus;
    private final HeaderName tenantHeader;
    private final TrustedSources trustedSources;
    private final RouterMetrics metrics;
    private final WorkerHealth health;
    private final EngineConfigErrors configErrors;

    CompletionsEndpoint(CompletionRequest.Endpoint endpoint, FrontendParts parts) {
        this.endpoint = endpoint;
        this.router = parts.router();
        this.engines = parts.engines();
        this.prompts = parts.prompts();
        this.hasher = new BlockHasher(parts.blockSize());
        this.reader = new CompletionRequestReader(parts.settings().defaultMaxTokens());
        this.modelName = parts.settings().modelName();
        this.maxBodyBytes = parts.settings().maxBodyBytes();
        this.overloadStatus = parts.settings().overloadStatus();
        this.tenantHeader = parts.settings().tenantHeader();
        this.trustedSources = parts.settings().trustedSources();
        this.metrics = parts.metrics();
        this.health = parts.health();
        this.configErrors = parts.configErrors();
    }

    @Override
    public void handle(ServerRequest req, ServerResponse res) {
        String requestId = req.headers().first(DynamoHeaders.REQUEST_ID).orElseGet(
            () -> "sluice-" + Long.toHexString(System.nanoTime()) + "-" + IDS.incrementAndGet());
        res.header(DynamoHeaders.REQUEST_ID, requestId);
        CompletionRequest request;
        AdmissionRequest admission;
        EncodedPrompt prompt;
        try {
            request = reader.read(endpoint, RequestBody.read(req, maxBodyBytes));
            if (!request.model().equals(modelName)) {
                throw new OpenAiException(400, "invalid_request_error", "The model `" + request.model()
                    + "` is not served here; this frontend serves `" + modelName + "`", "model", "model_not_found");
            }
            prompt = encode(request);
            AdmissionRequest.Builder builder = AdmissionRequest.builder(requestId).promptTokens(prompt.tokens(),
                hasher);
            if (trustedSources.trusts(req.remotePeer().address())) {
                DynamoHeaders.apply(req.headers(), builder, tenantHeader);
            } else {
                // An untrusted client must not jump the queue or spend another tenant's budget.
                metrics.untrustedHeaders(DynamoHeaders.privileged(req.headers(), tenantHeader));
            }
            admission = builder.build();
        } catch (OpenAiException e) {
            ErrorResponses.send(res, e);
            return;
        }
        AdmissionTicket ticket = new AdmissionTicket();
        long lifecycle = router.submit(admission, ticket);
        try {
            ticket.await();
        } catch (InterruptedException e) {
            router.aborted(lifecycle, e);
            Thread.currentThread().interrupt();
            return;
        }
        if (ticket.error() != null) {
            if (health.noneHealthy() && NO_WORKERS.equals(ticket.error().reason())) {
                // The router has no workers because every engine failed: say so, and when a probe is next due.
                ErrorResponses.noHealthyWorkers(res, health.nanosUntilNextProbe());
            } else {
                ErrorResponses.send(res, ticket.error(), overloadStatus);
            }
            return;
        }
        serve(res, request, requestId, prompt, lifecycle, ticket);
    }

    /** The request's prompt in the model's tokens; what the model cannot take as given is the client's 400. */
    private EncodedPrompt encode(CompletionRequest request) throws OpenAiException {
        try {
            return request.prompt().encode(prompts);
        } catch (PromptException e) {
            throw OpenAiException.invalid(e.getMessage(), e.param());
        }
    }

    private void serve(ServerResponse res, CompletionRequest request, String requestId, EncodedPrompt prompt,
                       long lifecycle, AdmissionTicket ticket) {
        int workerId = (int) ticket.worker().workerId();
        EngineQueue queue = new EngineQueue();
        EngineStream stream;
        try {
            stream = engines.get(workerId).submit(new EngineRequest(requestId, prompt.tokens(), request.maxTokens(),
                ticket.worker().dpRank(), prompt.text()), queue);
        } catch (RuntimeException e) {
            router.aborted(lifecycle, e);
            ErrorResponses.send(res, new OpenAiException(503, "service_unavailable", "the engine is unavailable",
                null, "engine_unavailable"));
            return;
        }
        CompletionHeader header = CompletionHeader.of(endpoint, requestId, System.currentTimeMillis() / 1000,
            modelName);
        boolean[] reported = new boolean[1];
        CompletionResponder.Hooks hooks = new CompletionResponder.Hooks() {
            @Override
            public void onFirstToken() {
                router.responding(lifecycle);
            }

            @Override
            public void onEnd(CompletionResponder.Outcome outcome) {
                // Before the client has the last bytes: a journal cut short then never shows a request answered
                // in full as unfinished, and the client's next request comes after this one's end.
                reported[0] = true;
                report(lifecycle, workerId, outcome);
            }
        };
        try {
            CompletionResponder.respond(res, header, request, queue, hooks, CompletionsEndpoint::engineError);
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
    private void report(long lifecycle, int workerId, CompletionResponder.Outcome outcome) {
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
    private static OpenAiException engineError(EngineQueue.Failed failed) {
        String message = failed.message();
        return switch (failed.kind()) {
            case REJECTED -> new OpenAiException(400, "invalid_request_error", message, null, "engine_rejected");
            case UNAVAILABLE -> new OpenAiException(503, "service_unavailable", message, null, "engine_unavailable");
            case TIMEOUT -> new OpenAiException(504, "timeout", message, null, "engine_timeout");
            case MISCONFIGURED -> new OpenAiException(502, "internal_error", "sluice is misconfigured for its engine: "
                + message, null, "engine_misconfigured");
            case FAILED -> new OpenAiException(502, "internal_error", "the engine failed the request: " + message,
                null, "engine_error");
        };
    }
}
