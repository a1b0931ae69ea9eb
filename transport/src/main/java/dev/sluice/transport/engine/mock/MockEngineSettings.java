package dev.sluice.transport.engine.mock;

import dev.sluice.transport.engine.sim.SimEngineContext;
import java.util.Objects;

/**
 * How to run the mock engine server.
 *
 * @param host             the address to bind, e.g. {@code 127.0.0.1}.
 * @param port             the port, 0 for any free one.
 * @param modelName        the one model name served; requests for another get 404.
 * @param defaultMaxTokens tokens generated when a request gives no {@code max_tokens}; 0 makes it required.
 * @param engine           the simulated worker's options.
 * @param kvEvents         where to publish the worker's KV events over ZMQ, or null for nowhere.
 */
public record MockEngineSettings(String host, int port, String modelName, int defaultMaxTokens,
                                 SimEngineContext engine, MockKvEvents kvEvents) {
    /** A mock engine that publishes no KV events. */
    public MockEngineSettings(String host, int port, String modelName, int defaultMaxTokens,
                              SimEngineContext engine) {
        this(host, port, modelName, defaultMaxTokens, engine, null);
    }

    public MockEngineSettings {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(modelName, "modelName");
        Objects.requireNonNull(engine, "engine");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be in [0, 65535], was " + port);
        }
        if (defaultMaxTokens < 0) {
            throw new IllegalArgumentException("defaultMaxTokens must be >= 0, was " + defaultMaxTokens);
        }
    }
}
