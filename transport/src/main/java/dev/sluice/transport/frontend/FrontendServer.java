package dev.sluice.transport.frontend;

/**
 * The HTTP server a {@link Frontend} answers on: Helidon's, a virtual thread per request, or the {@link LoopServer},
 * on event loops ({@link FrontendSettings.Io}).
 */
interface FrontendServer extends AutoCloseable {
    /** The port it listens on. */
    int port();

    /** Stops listening and closes the connections still open. */
    @Override
    void close();
}
