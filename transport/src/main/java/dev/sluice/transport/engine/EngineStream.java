package dev.sluice.transport.engine;

/** A submitted request's handle. Thread-safe. */
public interface EngineStream {
    /**
     * Asks the engine to stop the request and free what it holds. If the request has not ended yet, its listener
     * gets {@link EngineListener#onFinished} with {@link FinishReason#CANCELLED} (from the engine's thread, later,
     * never from inside this call); otherwise nothing happens. Idempotent, never blocks.
     */
    void cancel();
}
