package dev.sluice.transport.openai;

import io.helidon.http.Status;

/**
 * A request the server refuses, with what an OpenAI-shaped error body needs:
 * {@code {"error":{"message","type","param","code"}}}. The {@code type} follows from the status, by one table (the
 * README's "Errors" section shows it):
 *
 * <pre>
 *   400 404 409 413 415 431 505  invalid_request_error    500 501  internal_error
 *   401                          authentication_error     502      upstream_error
 *   403                          permission_error         503      service_unavailable
 *   429                          rate_limit_error         504      timeout
 *   529                          overloaded_error         others   below 500 invalid_request_error, else internal
 * </pre>
 */
public final class OpenAiException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int status;
    private final String type;
    private final String param;
    private final String code;

    /**
     * @param status HTTP status; it gives the error's {@link #type}.
     * @param param  the offending body field, or null.
     * @param code   a machine-readable code, or null.
     */
    public OpenAiException(int status, String message, String param, String code) {
        super(message);
        this.status = status;
        this.type = typeOf(status);
        this.param = param;
        this.code = code;
    }

    /** A 400 {@code invalid_request_error} about {@code param}. */
    public static OpenAiException invalid(String message, String param) {
        return new OpenAiException(400, message, param, null);
    }

    /** The HTTP status with its reason phrase; 529, which HTTP does not register, as {@code 529 Overloaded}. */
    public Status httpStatus() {
        return status == 529 ? Status.create(529, "Overloaded") : Status.create(status);
    }

    /** The OpenAI error type of a status, by the table above. */
    public static String typeOf(int status) {
        return switch (status) {
            case 401 -> "authentication_error";
            case 403 -> "permission_error";
            case 429 -> "rate_limit_error";
            case 502 -> "upstream_error";
            case 503 -> "service_unavailable";
            case 504 -> "timeout";
            case 529 -> "overloaded_error";
            default -> status < 500 ? "invalid_request_error" : "internal_error";
        };
    }

    public int status() {
        return status;
    }

    public String type() {
        return type;
    }

    public String param() {
        return param;
    }

    public String code() {
        return code;
    }
}
