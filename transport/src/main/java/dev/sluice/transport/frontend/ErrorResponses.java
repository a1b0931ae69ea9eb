package dev.sluice.transport.frontend;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.transport.openai.OpenAiException;
import dev.sluice.transport.openai.OpenAiJson;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerResponse;

/**
 * Renders an admission rejection as an OpenAI-shaped error: the status from the error class (the overload status
 * for capacity), the {@code type} the status gives ({@link OpenAiException#typeOf}), the client-safe message only,
 * the machine-readable reason as {@code code}, and a {@code Retry-After} in whole seconds when the error carries one.
 */
final class ErrorResponses {
    private ErrorResponses() {
    }

    static void send(ServerResponse res, AdmissionError error, int overloadStatus) {
        send(res, withRetryAfter(res, error, overloadStatus));
    }

    /** Sets the error's {@code Retry-After} (if any) on {@code res} and returns the body to send with it. */
    static OpenAiException withRetryAfter(ServerResponse res, AdmissionError error, int overloadStatus) {
        long retryNs = error.retryAfterNanos();
        if (retryNs > 0) {
            res.header(HeaderNames.RETRY_AFTER, String.valueOf((retryNs + 999_999_999L) / 1_000_000_000L));
        }
        return new OpenAiException(error.httpStatus(overloadStatus), error.publicMessage(), null, error.reason());
    }

    /**
     * 503 {@code no_healthy_workers}: every engine is unhealthy. {@code Retry-After} is when the next probe is due, at
     * least 1 s (none when unknown). The message does not tell the client how many engines there are.
     */
    static void noHealthyWorkers(ServerResponse res, long nanosUntilNextProbe) {
        if (nanosUntilNextProbe >= 0) {
            res.header(HeaderNames.RETRY_AFTER, String.valueOf(Math.max(1,
                (nanosUntilNextProbe + 999_999_999L) / 1_000_000_000L)));
        }
        send(res, noHealthyWorkersError());
    }

    /** The body of {@link #noHealthyWorkers}. */
    static OpenAiException noHealthyWorkersError() {
        return new OpenAiException(503, "No healthy engine is available for this model: "
            + "its engines are failing and being retried; retry later", null, "no_healthy_workers");
    }

    static void send(ServerResponse res, OpenAiException error) {
        res.status(error.httpStatus());
        res.header(HeaderNames.CONTENT_TYPE, "application/json");
        res.send(OpenAiJson.error(error));
    }
}
