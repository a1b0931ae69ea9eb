package dev.sluice.transport.engine.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.transport.engine.ErrorKind;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.time.Duration;

/**
 * A remote engine's failure as the frontend passes it on: a kind (which decides the client's status) and a
 * client-safe message. Messages never name the engine's address, since clients need not know the fleet; an
 * upstream's own OpenAI error message is passed on, cut short.
 *
 * @param kind    why it failed.
 * @param message what to tell the client.
 */
record UpstreamFailure(ErrorKind kind, String message) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** No response arrived: the connection failed or timed out, or the request could not be sent. */
    static UpstreamFailure beforeResponse(Throwable cause, Duration connectTimeout) {
        if (cause instanceof HttpConnectTimeoutException) {
            return new UpstreamFailure(ErrorKind.UNAVAILABLE, "the engine did not accept a connection within "
                + describe(connectTimeout));
        }
        if (cause instanceof ConnectException) {
            return new UpstreamFailure(ErrorKind.UNAVAILABLE, "the engine refused the connection");
        }
        return new UpstreamFailure(ErrorKind.UNAVAILABLE, "the engine could not be reached");
    }

    /**
     * The engine answered with a status other than 200. 400, 413 and 422 are the request's fault; 429, 503 and 529
     * mean "not now"; anything else (404 for a model the engine does not serve, 5xx) is the engine's. Only a
     * rejection carries the engine's message (it tells the client what to fix); other bodies may hold the engine's
     * internals, a stack trace or another request's data, so the client sees the status alone.
     */
    static UpstreamFailure httpStatus(int status, byte[] body) {
        ErrorKind kind = switch (status) {
            case 400, 413, 422 -> ErrorKind.REJECTED;
            case 429, 503, 529 -> ErrorKind.UNAVAILABLE;
            case 408, 504 -> ErrorKind.TIMEOUT;
            default -> ErrorKind.FAILED;
        };
        String message = "the engine answered HTTP " + status;
        if (kind != ErrorKind.REJECTED) {
            return new UpstreamFailure(kind, message);
        }
        JsonNode json;
        try {
            json = JSON.readTree(body);
        } catch (IOException e) {
            json = null;
        }
        return new UpstreamFailure(kind, message + CompletionStreamAdapter.upstreamMessage(json));
    }

    /** {@code 2 s} or {@code 500 ms}. */
    static String describe(Duration duration) {
        long millis = duration.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
    }
}
