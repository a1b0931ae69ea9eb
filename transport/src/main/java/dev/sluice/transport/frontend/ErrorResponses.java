package dev.sluice.transport.frontend;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.transport.openai.OpenAiException;
import dev.sluice.transport.openai.OpenAiJson;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerResponse;
import java.util.function.Consumer;

/**
 * Renders an admission rejection as an OpenAI-shaped error: the status from the error class (the overload status
 * for capacity), the {@code type} the status gives ({@link OpenAiException#typeOf}), the client-safe message only,
 * the machine-readable reason as {@code code}, and a {@code Retry-After} in whole seconds when the error carries one;
 * for either server (the header handed to a setter). Stateless.
 */
final class ErrorResponses {
    /** The answer to a request whose engine could not take it. */
    static final OpenAiException ENGINE_UNAVAILABLE = new OpenAiException(503, "the engine is unavailable", null,
        "engine_unavailable");

    private ErrorResponses() {
    }

    /**
     * The error for an admission rejection of a request to {@code model}, its {@code Retry-After} (whole seconds)
     * given to {@code retryAfter}. When the router has no workers because every engine failed: 503
     * {@code no_healthy_workers}, its {@code Retry-After} when the next probe is due, at least 1 s (none when unknown);
     * the message does not tell the client how many engines there are.
     */
    static OpenAiException rejection(Consumer<String> retryAfter, ModelServing model, AdmissionError error,
                                     int overloadStatus) {
        if (!model.health().noneHealthy() || !CompletionsEndpoint.NO_WORKERS.equals(error.reason())) {
            return withRetryAfter(retryAfter, error, overloadStatus);
        }
        long nanos = model.health().nanosUntilNextProbe();
        if (nanos >= 0) {
            retryAfter.accept(String.valueOf(Math.max(1, seconds(nanos))));
        }
        return new OpenAiException(503, "No healthy engine is available for this model: "
            + "its engines are failing and being retried; retry later", null, "no_healthy_workers");
    }

    /** The error's body; its {@code Retry-After} (if any), in whole seconds, given to {@code retryAfter}. */
    static OpenAiException withRetryAfter(Consumer<String> retryAfter, AdmissionError error, int overloadStatus) {
        long retryNs = error.retryAfterNanos();
        if (retryNs > 0) {
            retryAfter.accept(String.valueOf(seconds(retryNs)));
        }
        return new OpenAiException(error.httpStatus(overloadStatus), error.publicMessage(), null, error.reason());
    }

    /** Where a Helidon answer takes its {@code Retry-After}. */
    static Consumer<String> retryAfter(ServerResponse res) {
        return seconds -> res.header(HeaderNames.RETRY_AFTER, seconds);
    }

    private static long seconds(long nanos) {
        return (nanos + 999_999_999L) / 1_000_000_000L;
    }

    static void send(ServerResponse res, OpenAiException error) {
        res.status(error.httpStatus());
        res.header(HeaderNames.CONTENT_TYPE, "application/json");
        res.send(OpenAiJson.error(error));
    }
}
