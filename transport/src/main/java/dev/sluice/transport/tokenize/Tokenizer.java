package dev.sluice.transport.tokenize;

/**
 * Turns prompt text into token ids. The same tokenizer must serve the router and the engines it routes to, so
 * that identical text yields identical ids and prefix caching lines up. Thread-safe.
 */
public interface Tokenizer {
    /** The token ids of {@code text}; never {@code null}. */
    int[] encode(CharSequence text);
}
