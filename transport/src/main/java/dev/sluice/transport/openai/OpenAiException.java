package dev.sluice.transport.openai;

/**
 * A request the server refuses, with what an OpenAI-shaped error body needs:
 * {@code {"error":{"message","type","param","code"}}}.
 */
public final class OpenAiException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int status;
    private final String type;
    private final String param;
    private final String code;

    /**
     * @param status HTTP status.
     * @param type   OpenAI error type, e.g. {@code invalid_request_error}.
     * @param param  the offending body field, or null.
     * @param code   a machine-readable code, or null.
     */
    public OpenAiException(int status, String type, String message, String param, String code) {
        super(message);
        this.status = status;
        this.type = type;
        this.param = param;
        this.code = code;
    }

    /** A 400 {@code invalid_request_error} about {@code param}. */
    public static OpenAiException invalid(String message, String param) {
        return new OpenAiException(400, "invalid_request_error", message, param, null);
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
