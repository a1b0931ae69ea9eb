package dev.sluice.transport.engine;

/**
 * A request from {@link Engine#call}, which the caller carries out on its own thread with {@link #run}: a caller
 * that needs only the whole answer then waits for it without a hand-off between threads. Thread-safe, as any
 * {@link EngineStream}; {@link #cancel} may come before, during or after {@link #run}.
 */
public interface EngineCall extends EngineStream {
    /**
     * Carries the request out to its end on the calling thread, which then makes every listener call, before this
     * returns; an engine that works on threads of its own has started the request already, and this returns at once.
     * Never throws: failures reach the listener. Called once.
     */
    void run();
}
