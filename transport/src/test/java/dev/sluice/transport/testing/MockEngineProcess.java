package dev.sluice.transport.testing;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * {@code sluice mock-engine --port 0} as a separate process (see {@link SluiceProcess}). {@link #close} sends
 * SIGTERM (the server shuts down gracefully) and kills it if it is still alive after 5 s. Idempotent.
 */
public final class MockEngineProcess implements AutoCloseable {
    private static final Pattern READY = Pattern.compile("mock-engine listening on (http://\\S+)");

    private final SluiceProcess process;

    private MockEngineProcess(SluiceProcess process) {
        this.process = process;
    }

    /** Starts the process with extra {@code mock-engine} options and waits for its ready line (at most 30 s). */
    public static MockEngineProcess start(String... options) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("mock-engine", "--port", "0"));
        args.addAll(List.of(options));
        return new MockEngineProcess(SluiceProcess.start(READY, args));
    }

    /** {@code http://127.0.0.1:PORT}. */
    public String baseUrl() {
        return process.ready();
    }

    /** What the process printed so far. */
    public String output() {
        return process.output();
    }

    @Override
    public void close() {
        process.close();
    }
}
