package dev.sluice.transport.frontend;

import dev.sluice.transport.engine.Engine;
import java.util.List;

/**
 * A frontend's running engines by worker id, and what stops them. Opened by {@link EngineSetup#open}; {@link #close}
 * stops every engine (requests still running end with an error). Idempotent; thread-safe.
 */
public final class EngineSet implements AutoCloseable {
    private final List<Engine> engines;
    private final Runnable stop;
    private boolean closed;

    EngineSet(List<Engine> engines, Runnable stop) {
        this.engines = List.copyOf(engines);
        this.stop = stop;
    }

    /** The engines; worker {@code i} is element {@code i}. */
    public List<Engine> engines() {
        return engines;
    }

    public int size() {
        return engines.size();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        stop.run();
    }
}
