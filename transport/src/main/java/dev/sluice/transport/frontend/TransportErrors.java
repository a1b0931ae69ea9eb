package dev.sluice.transport.frontend;

import dev.sluice.transport.openai.OpenAiException;
import dev.sluice.transport.openai.OpenAiJson;
import io.helidon.http.DirectHandler;
import io.helidon.http.HeaderNames;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.http.Status;
import io.helidon.webserver.ErrorHandling;
import io.helidon.webserver.http.DirectHandlers;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.TooLongHttpHeaderException;

/**
 * The answers Helidon gives on its own, before or around routing (a request it cannot parse, a body over the limit,
 * an unhandled failure), as OpenAI-shaped JSON errors instead of Helidon's plain text. Request headers over
 * Helidon's size limit answer 431 Request Header Fields Too Large rather than Helidon's 400; a malformed chunked body
 * ({@link ChunkedBodyReader}) answers 400 {@code malformed_chunked_body} naming the problem in fixed text.
 *
 * <p>Helidon reports oversized headers as a {@code BAD_REQUEST} event whose only distinguishing mark is its message
 * ("Header size exceeded"), and passes the message to direct handlers only with
 * {@link ErrorHandling#includeEntity()} on. So {@link #errorHandling()} turns it on, and this handler, installed for
 * every event type, never echoes a message: the client sees fixed text only, whatever an exception said.
 * Stateless; thread-safe.
 */
final class TransportErrors implements DirectHandler {
    /** Helidon's message for request headers over {@code Http1Config.maxHeadersSize()} (16 KiB by default). */
    static final String HEADER_SIZE_EXCEEDED = "Header size exceeded";
    private static final Status HEADERS_TOO_LARGE = Status.create(431, "Request Header Fields Too Large");

    /** Handlers for every direct event. */
    static DirectHandlers directHandlers() {
        TransportErrors errors = new TransportErrors();
        DirectHandlers.Builder handlers = DirectHandlers.builder();
        for (EventType type : EventType.values()) {
            handlers.addHandler(type, errors);
        }
        return handlers.build();
    }

    /** Helidon's error handling with the event's message passed to {@link #handle} (never to the client). */
    static ErrorHandling errorHandling() {
        return ErrorHandling.builder().includeEntity(true).build();
    }

    @Override
    public TransportResponse handle(TransportRequest request, EventType eventType, Status defaultStatus,
                                    ServerResponseHeaders responseHeaders, String message) {
        OpenAiException error = error(eventType, defaultStatus, message);
        responseHeaders.set(HeaderNames.CONTENT_TYPE, "application/json");
        return TransportResponse.builder()
            .status(error.status() == HEADERS_TOO_LARGE.code() ? HEADERS_TOO_LARGE : Status.create(error.status()))
            .headers(responseHeaders)
            // keepAlive left as Helidon's default handler leaves it: Helidon still closes after what it cannot parse.
            .entity(OpenAiJson.error(error))
            .build();
    }

    /** 413 for a request body over the limit, whoever noticed it (Helidon, or {@link RequestBody}). */
    static OpenAiException payloadTooLarge() {
        return new OpenAiException(413, "The request body is larger than the server accepts",
            null, "payload_too_large");
    }

    /** 431: the request's headers are over the server's limit. */
    static OpenAiException headerFieldsTooLarge() {
        return new OpenAiException(431, "The request's header fields are too large: "
            + "together they exceed the server's limit", null, "request_header_fields_too_large");
    }

    /** {@code status} (400 or another client error): the request cannot be parsed. */
    static OpenAiException malformed(int status) {
        return new OpenAiException(status, "The HTTP request is malformed and cannot be parsed", null, "bad_request");
    }

    /**
     * The client's error for a request head Netty's decoder refused ({@link LoopServer}), as Helidon's are answered:
     * 431 for headers over the limit, 414 for a request line over it, else 400. Fixed text, never the cause's.
     */
    static OpenAiException decoderFailure(Throwable cause) {
        if (cause instanceof TooLongHttpHeaderException) {
            return headerFieldsTooLarge();
        }
        return cause instanceof TooLongFrameException ? new OpenAiException(414, "The request line is too long",
            null, "uri_too_long") : malformed(400);
    }

    /** The client's error for an event: fixed text by kind, never the event's message. */
    static OpenAiException error(EventType eventType, Status defaultStatus, String message) {
        if (eventType == EventType.BAD_REQUEST && HEADER_SIZE_EXCEEDED.equals(message)) {
            return headerFieldsTooLarge();
        }
        if (eventType == EventType.BAD_REQUEST && ChunkSizeLine.REASONS.contains(message)) {
            // Our own fixed text (ChunkedBodyReader's), never the client's bytes.
            return new OpenAiException(400, message, null, "malformed_chunked_body");
        }
        if (defaultStatus.code() == Status.REQUEST_ENTITY_TOO_LARGE_413_CODE) {
            // Helidon reports a body over maxPayloadSize as a BAD_REQUEST event with status 413.
            return payloadTooLarge();
        }
        return switch (eventType) {
            case BAD_REQUEST -> malformed(defaultStatus.code());
            case PAYLOAD_TOO_LARGE -> payloadTooLarge();
            case HTTP_VERSION_NOT_SUPPORTED -> new OpenAiException(defaultStatus.code(),
                "Only HTTP/1.1 is served here", null, "http_version_not_supported");
            case FORBIDDEN -> new OpenAiException(defaultStatus.code(), "Forbidden", null,
                "forbidden");
            case INTERNAL_ERROR -> new OpenAiException(defaultStatus.code(), "Internal server error",
                null, "internal_error");
            case OTHER -> new OpenAiException(defaultStatus.code(), defaultStatus.reasonPhrase(), null, null);
        };
    }
}
