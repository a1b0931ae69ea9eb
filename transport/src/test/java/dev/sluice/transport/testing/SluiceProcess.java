package dev.sluice.transport.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code sluice} command as a separate process: this JVM's java, class path and flags (Agrona's and Chronicle's,
 * {@code -Dchronicle.analytics.disable=true} included), running {@code SluiceMain}. Its output is kept for failure
 * messages. {@link #kill} is {@code kill -9}; {@link #close} sends SIGTERM (a graceful shutdown) and kills the
 * process if it is still alive after 5 s. Idempotent close; not thread-safe.
 */
public final class SluiceProcess implements AutoCloseable {
    private final Process process;
    private final String ready;
    private final StringBuffer output;
    private final CountDownLatch outputEnded;

    private SluiceProcess(Process process, String ready, StringBuffer output, CountDownLatch outputEnded) {
        this.process = process;
        this.ready = ready;
        this.output = output;
        this.outputEnded = outputEnded;
    }

    /**
     * Starts {@code sluice ARGS...} and waits (at most 30 s) for a line matching {@code readyLine}, whose first group
     * is then {@link #ready()}.
     */
    public static SluiceProcess start(Pattern readyLine, List<String> args) throws IOException, InterruptedException {
        return start(readyLine, args, 0);
    }

    /**
     * {@link #start(Pattern, List)} under {@code ulimit -n openFiles} (soft and hard: the JVM cannot raise it), or
     * without a limit of its own when {@code openFiles} is 0.
     */
    public static SluiceProcess start(Pattern readyLine, List<String> args, int openFiles)
        throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        if (openFiles > 0) {
            command.addAll(List.of("/bin/sh", "-c", "ulimit -n " + openFiles + " && exec \"$@\"", "sh"));
        }
        command.add(ProcessHandle.current().info().command().orElseThrow());
        for (String flag : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            // A debugger agent would try to bind the port the test JVM already holds.
            if (!flag.startsWith("-agentlib:jdwp") && !flag.startsWith("-javaagent")) {
                command.add(flag);
            }
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.sluice.transport.cli.SluiceMain"));
        command.addAll(args);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        StringBuffer output = new StringBuffer();
        CompletableFuture<String> ready = new CompletableFuture<>();
        CountDownLatch outputEnded = new CountDownLatch(1);
        Thread.ofPlatform().daemon().name("sluice-process-output").start(() -> {
            drain(process, readyLine, output, ready);
            outputEnded.countDown();
        });
        try {
            // A process that exits fails at once; the bound only caps a start slowed by a loaded machine.
            return new SluiceProcess(process, ready.get(180, TimeUnit.SECONDS), output, outputEnded);
        } catch (ExecutionException | TimeoutException e) {
            process.destroyForcibly();
            throw new IllegalStateException("sluice " + String.join(" ", args) + " did not start; its output:\n"
                + output, e);
        }
    }

    private static void drain(Process process, Pattern readyLine, StringBuffer output,
                              CompletableFuture<String> ready) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
            StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                output.append(line).append('\n');
                Matcher matcher = readyLine.matcher(line);
                if (matcher.find()) {
                    ready.complete(matcher.group(1));
                }
            }
            ready.completeExceptionally(new IllegalStateException("the process exited"));
        } catch (IOException e) {
            ready.completeExceptionally(e);
        }
    }

    /** The first group of the ready line (an address, say). */
    public String ready() {
        return ready;
    }

    /** Everything the process printed, once it has exited ({@link #stop}) and its output is read to the end. */
    public String outputAtExit() throws InterruptedException {
        if (!outputEnded.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the process's output did not end within 30 s; so far:\n" + output);
        }
        return output.toString();
    }

    /** What the process printed so far. */
    public String output() {
        return output.toString();
    }

    /** Sends the process SIGHUP ({@code kill -HUP PID}) and waits for {@code kill} to have sent it. */
    public void hangUp() throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-HUP", Long.toString(process.pid())).redirectErrorStream(true)
            .start();
        if (!kill.waitFor(30, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IllegalStateException("kill -HUP " + process.pid() + " failed");
        }
    }

    /** {@code kill -9} (SIGKILL: no shutdown hook runs), then waits for the process to die; its exit status. */
    public int kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the process survived SIGKILL for 30 s");
        }
        return process.exitValue();
    }

    /** SIGTERM, then waits (at most 30 s) for the graceful shutdown; its exit status. */
    public int stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("the process did not stop within 30 s of SIGTERM; its output:\n"
                + output);
        }
        return process.exitValue();
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
