package dev.sluice.transport.tokenize;

/**
 * A prompt that cannot be turned into tokens as given: a token id outside the vocabulary, a chat the model's
 * template refuses ({@code raise_exception}), a chat for a model without a chat template. The message says what to
 * fix and is meant for the client (a 400). Immutable; thrown on the request's own thread.
 */
public final class PromptException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String param;

    /**
     * @param message what is wrong, for the client.
     * @param param   the request field at fault ({@code prompt}, {@code messages}, ...), or {@code null}.
     */
    public PromptException(String message, String param) {
        super(message, null, false, false);
        this.param = param;
    }

    /** The request field at fault, or {@code null}. */
    public String param() {
        return param;
    }
}
