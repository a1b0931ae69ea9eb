package dev.sluice.transport.engine.telemetry;

import dev.sluice.transport.metrics.ScrapeFailure;
import java.util.Objects;

/** A scrape of an engine's metrics that gave no load, with the reason it is counted under and a message for logs. */
public final class ScrapeException extends Exception {
    private static final long serialVersionUID = 1L;

    private final ScrapeFailure failure;

    /** A failure of the kind {@code failure}; {@code message} says what happened, never with an answer's body. */
    public ScrapeException(ScrapeFailure failure, String message) {
        super(message);
        this.failure = Objects.requireNonNull(failure, "failure");
    }

    public ScrapeFailure failure() {
        return failure;
    }
}
