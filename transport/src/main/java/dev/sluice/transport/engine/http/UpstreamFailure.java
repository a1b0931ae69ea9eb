package dev.sluice.transport.engine.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.transport.engine.ErrorKind;
import io.netty.channel.ConnectTimeoutException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Locale;

/**
 * A remote engine's failure as the frontend passes it on: a kind (which decides the client's status) and a
 * client-safe message. Messages never name the engine's address, since clients need not know the fleet; an
 * upstream's own OpenAI error message is passed on, cut short.
 *
 * @param kind    why it failed.
 * @param message what to tell the client.
 */
record UpstreamFailure(ErrorKind kind, String message) {
    private static final ObjectMapper JSON = ReaderJson.MAPPER;

    /** No response arrived: the connection failed or timed out, or the request could not be sent. */
    static UpstreamFailure beforeResponse(Throwable cause, Duration connectTimeout) {
        Throwable root = rootCause(cause);
        boolean timedOut = root instanceof ConnectTimeoutException
            || isConnectFailure(cause) && root instanceof SocketTimeoutException;
        if (timedOut) {
            return new UpstreamFailure(ErrorKind.UNAVAILABLE, "the engine did not accept a connection within "
                + describe(connectTimeout));
        }
        if (root instanceof ConnectException) {
            return new UpstreamFailure(ErrorKind.UNAVAILABLE, "the engine refused the connection");
        }
        return new UpstreamFailure(ErrorKind.UNAVAILABLE, "the engine could not be reached");
    }

    /** True when {@code failure} (or what caused it) is a refused or timed-out connection attempt. */
    static boolean isConnectFailure(Throwable failure) {
        Throwable root = rootCause(failure);
        return root instanceof ConnectException || root instanceof SocketTimeoutException && root.getMessage() != null
            && root.getMessage().toLowerCase(Locale.ROOT).contains("connect");
    }

    /** True when {@code failure} (or what caused it) is a socket timeout. */
    static boolean isTimeout(Throwable failure) {
        return rootCause(failure) instanceof SocketTimeoutException;
    }

    /** The innermost cause of {@code failure}, past whatever wraps the socket error. */
    static Throwable rootCause(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root;
    }

    /**
     * The engine answered with a status other than 200. 400, 413 and 422 are the request's fault; 429, 503 and 529
     * mean "not now"; 404 (the engine does not serve {@code model}, or has no completions at this URL), 401 and 403
     * are sluice's configuration; anything else (5xx) is the engine's. Only a rejection carries the engine's message
     * (it tells the client what to fix); other bodies may hold the engine's internals, a stack trace or another
     * request's data, so the client sees the status alone.
     */
    static UpstreamFailure httpStatus(int status, byte[] body, String model) {
        ErrorKind kind = switch (status) {
            case 400, 413, 422 -> ErrorKind.REJECTED;
            case 429, 503, 529 -> ErrorKind.UNAVAILABLE;
            case 408, 504 -> ErrorKind.TIMEOUT;
            case 401, 403, 404 -> ErrorKind.MISCONFIGURED;
            default -> ErrorKind.FAILED;
        };
        String message = "the engine answered HTTP " + status;
        if (kind == ErrorKind.MISCONFIGURED) {
            return new UpstreamFailure(kind, misconfigured(status, json(body), model));
        }
        if (kind != ErrorKind.REJECTED) {
            return new UpstreamFailure(kind, message);
        }
        return new UpstreamFailure(kind, message + CompletionStreamAdapter.upstreamMessage(json(body)));
    }

    /** What sluice is set up wrong for: the model (a 404 about it), the URL (another 404), the credentials. */
    private static String misconfigured(int status, JsonNode body, String model) {
        if (status != 404) {
            return "the engine refused sluice's request as unauthorized (HTTP " + status + ")";
        }
        JsonNode error = body == null ? null : body.path("error");
        boolean aboutModel = error != null && (error.path("param").asText("").equals("model")
            || error.path("code").asText("").equals("model_not_found")
            || error.path("message").asText("").toLowerCase(Locale.ROOT).contains("model"));
        return aboutModel ? "the engine does not serve the model `" + model + "` (HTTP 404); start it with that "
            + "model or give serve the engine's name with --engine-model"
            : "the engine has no /v1/completions at its URL (HTTP 404); check --engine-url";
    }

    private static JsonNode json(byte[] body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            return null;
        }
    }

    /** {@code 2 s} or {@code 500 ms}. */
    static String describe(Duration duration) {
        long millis = duration.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
    }
}
