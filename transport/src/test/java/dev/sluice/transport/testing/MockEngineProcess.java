package dev.sluice.transport.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code sluice mock-engine --port 0} as a separate process: this JVM's java, classpath and flags, running
 * {@code SluiceMain}. Its output is kept for failure messages. {@link #close} sends SIGTERM (the server shuts down
 * gracefully) and kills it if it is still alive after 5 s. Idempotent.
 */
public final class MockEngineProcess implements AutoCloseable {
    private static final Pattern READY = Pattern.compile("mock-engine listening on (http://\\S+)");

    private final Process process;
    private final String baseUrl;
    private final StringBuffer output;

    private MockEngineProcess(Process process, String baseUrl, StringBuffer output) {
        this.process = process;
        this.baseUrl = baseUrl;
        this.output = output;
    }

    /** Starts the process with extra {@code mock-engine} options and waits for its ready line (at most 30 s). */
    public static MockEngineProcess start(String... options) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        for (String flag : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            // A debugger agent would try to bind the port the test JVM already holds.
            if (!flag.startsWith("-agentlib:jdwp") && !flag.startsWith("-javaagent")) {
                command.add(flag);
            }
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.sluice.transport.cli.SluiceMain",
            "mock-engine", "--port", "0"));
        command.addAll(List.of(options));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        StringBuffer output = new StringBuffer();
        CompletableFuture<String> ready = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("mock-engine-output").start(() -> drain(process, output, ready));
        try {
            return new MockEngineProcess(process, ready.get(30, TimeUnit.SECONDS), output);
        } catch (ExecutionException | TimeoutException e) {
            process.destroyForcibly();
            throw new IllegalStateException("mock-engine did not start; its output:\n" + output, e);
        }
    }

    private static void drain(Process process, StringBuffer output, CompletableFuture<String> ready) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
            StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                output.append(line).append('\n');
                Matcher matcher = READY.matcher(line);
                if (matcher.find()) {
                    ready.complete(matcher.group(1));
                }
            }
            ready.completeExceptionally(new IllegalStateException("mock-engine exited"));
        } catch (IOException e) {
            ready.completeExceptionally(e);
        }
    }

    /** {@code http://127.0.0.1:PORT}. */
    public String baseUrl() {
        return baseUrl;
    }

    /** What the process printed so far. */
    public String output() {
        return output.toString();
    }

    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
