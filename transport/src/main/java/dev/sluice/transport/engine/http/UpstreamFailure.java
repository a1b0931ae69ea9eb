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
     * mean "not now"; anything else (404 for a model the engine does not serve, 5xx) is the engine's.
     */
    static UpstreamFailure httpStatus(int status, byte[] body) {
        JsonNode json;
        try {
            json = JSON.readTree(body);
        } catch (IOException e) {
            json = null;
        }
        String message = "the engine answered HTTP " + status + CompletionStreamAdapter.upstreamMessage(json);
        ErrorKind kind = switch (status) {
            case 400, 413, 422 -> ErrorKind.REJECTED;
            case 429, 503, 529 -> ErrorKind.UNAVAILABLE;
            case 408, 504 -> ErrorKind.TIMEOUT;
            default -> ErrorKind.FAILED;
        };
        return new UpstreamFailure(kind, message);
    }

    /** {@code 2 s} or {@code 500 ms}. */
    static String describe(Duration duration) {
        long millis = duration.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
    }
}
