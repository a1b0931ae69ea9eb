package dev.sluice.transport.testing;

import dev.sluice.transport.engine.telemetry.MetricsSource;
import dev.sluice.transport.engine.telemetry.ScrapeException;
import dev.sluice.transport.metrics.ScrapeFailure;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * An engine's {@code /metrics} as a test scripts it: each fetch answers the next scripted exposition or failure;
 * once the script is down to its last entry, that one answers every fetch. Counts fetches. Thread-safe.
 */
public final class ScriptedMetricsSource implements MetricsSource {
    private final Deque<Object> script = new ArrayDeque<>();
    private int fetches;
    private boolean closed;

    /** The next fetch answers this text. */
    public synchronized ScriptedMetricsSource then(String exposition) {
        script.add(exposition);
        return this;
    }

    /** The next fetch fails so. */
    public synchronized ScriptedMetricsSource thenFail(ScrapeFailure failure, String message) {
        script.add(new ScrapeException(failure, message));
        return this;
    }

    @Override
    public synchronized String fetch() throws ScrapeException {
        fetches++;
        Object next = script.size() > 1 ? script.poll() : script.peek();
        if (next == null) {
            throw new IllegalStateException("nothing scripted");
        }
        if (next instanceof ScrapeException failure) {
            throw new ScrapeException(failure.failure(), failure.getMessage());
        }
        return (String) next;
    }

    @Override
    public String address() {
        return "scripted";
    }

    @Override
    public synchronized void close() {
        closed = true;
    }

    public synchronized int fetches() {
        return fetches;
    }

    public synchronized boolean closed() {
        return closed;
    }
}
