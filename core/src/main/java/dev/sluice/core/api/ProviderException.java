package dev.sluice.core.api;

/** A provider refused its parameters; the message is shown to the operator verbatim. */
public final class ProviderException extends Exception {
    private static final long serialVersionUID = 1L;

    public ProviderException(String message) {
        super(message);
    }

    public ProviderException(String message, Throwable cause) {
        super(message, cause);
    }
}
