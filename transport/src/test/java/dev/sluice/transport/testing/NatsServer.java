package dev.sluice.transport.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real {@code nats-server -js} (the Debian package; {@code .ci/run} installs it) on a free loopback port with a
 * JetStream store in a temporary directory. {@link #start} returns once a client connection to the port gets the
 * server's {@code INFO} greeting, so the server accepts clients when it returns. {@link #stop} (SIGTERM),
 * {@link #kill} (SIGKILL) and {@link #restart} keep the port and the store, so clients that reconnect to
 * {@link #url} find the same server again. A missing {@code nats-server} fails the test (it does not skip).
 * {@link #close} stops the server and deletes the store; idempotent. Not thread-safe.
 */
public final class NatsServer implements AutoCloseable {
    private static final List<Path> CANDIDATES = List.of(Path.of("/usr/bin/nats-server"),
        Path.of("/usr/sbin/nats-server"), Path.of("/usr/local/bin/nats-server"));
    private static final long READY_BOUND_NS = TimeUnit.SECONDS.toNanos(60);

    private final Path binary;
    private final int port;
    private final Path storeDir;
    private final StringBuffer output = new StringBuffer();
    private Process process;

    private NatsServer(Path binary, int port, Path storeDir) {
        this.binary = binary;
        this.port = port;
        this.storeDir = storeDir;
    }

    /** Starts a server on a free loopback port and waits until it greets clients. */
    public static NatsServer start() throws IOException, InterruptedException {
        Path binary = binary();
        Path storeDir = Files.createTempDirectory("sluice-nats-");
        NatsServer server = new NatsServer(binary, freePort(), storeDir);
        try {
            server.launch();
        } catch (IOException | InterruptedException | RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    /** The {@code nats-server} executable: on the PATH or in a Debian location; fails naming the install step. */
    static Path binary() {
        String path = System.getenv().getOrDefault("PATH", "");
        Stream<Path> onPath = Stream.of(path.split(":")).filter(dir -> !dir.isEmpty())
            .map(dir -> Path.of(dir, "nats-server"));
        return Stream.concat(onPath, CANDIDATES.stream()).filter(Files::isExecutable).findFirst()
            .orElseThrow(() -> new AssertionError("nats-server is not installed (looked on the PATH and in "
                + CANDIDATES + "); install it with `apt-get install nats-server` (.ci/run does so)"));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** {@code nats://127.0.0.1:PORT}; the same across {@link #restart}. */
    public String url() {
        return "nats://127.0.0.1:" + port;
    }

    /** The client port. */
    public int port() {
        return port;
    }

    /** Whether the server process is running. */
    public boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** What the server printed so far, across restarts (for failure messages). */
    public String output() {
        return output.toString();
    }

    /** SIGTERM (the server shuts down gracefully), then waits for it to exit. No-op when not running. */
    public void stop() throws InterruptedException {
        end(false);
    }

    /** SIGKILL, then waits for the process to die. No-op when not running. */
    public void kill() throws InterruptedException {
        end(true);
    }

    /** Stops the server if it runs, then starts it again on the same port and store; returns once it greets. */
    public void restart() throws IOException, InterruptedException {
        stop();
        launch();
    }

    private void launch() throws IOException, InterruptedException {
        if (isRunning()) {
            throw new IllegalStateException("nats-server is already running on " + url());
        }
        List<String> command = List.of(binary.toString(), "-js", "-a", "127.0.0.1", "-p", Integer.toString(port),
            "-sd", storeDir.toString(), "-n", "sluice-test-" + port);
        Process started = new ProcessBuilder(command).redirectErrorStream(true).start();
        process = started;
        Thread.ofPlatform().daemon().name("nats-server-output").start(() -> drain(started.getInputStream()));
        long giveUp = System.nanoTime() + READY_BOUND_NS;
        while (!greets()) {
            if (!started.isAlive()) {
                throw new IllegalStateException("nats-server exited with status " + started.exitValue()
                    + " before accepting clients on " + url() + "; its output:\n" + output);
            }
            if (System.nanoTime() - giveUp > 0) {
                end(true);
                throw new IllegalStateException("nats-server did not accept clients on " + url()
                    + " within 60 s; its output:\n" + output);
            }
            Thread.sleep(10);
        }
    }

    /** Whether a client connection now gets the server's greeting. */
    public boolean accepting() {
        return greets();
    }

    /** Whether a fresh connection to the port receives the server's INFO line (the NATS protocol's greeting). */
    private boolean greets() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
            socket.setSoTimeout(2000);
            byte[] head = socket.getInputStream().readNBytes(4);
            return "INFO".equals(new String(head, StandardCharsets.US_ASCII));
        } catch (IOException e) {
            return false;
        }
    }

    private void drain(InputStream in) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                output.append(line).append('\n');
            }
        } catch (IOException e) {
            output.append("(output ended: ").append(e).append(")\n");
        }
    }

    private void end(boolean forcibly) throws InterruptedException {
        if (!isRunning()) {
            return;
        }
        if (forcibly) {
            process.destroyForcibly();
        } else {
            process.destroy();
        }
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("nats-server on " + url() + " survived SIGKILL for 30 s");
            }
        }
    }

    @Override
    public void close() {
        try {
            end(false);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        if (!Files.exists(storeDir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(storeDir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not delete the NATS store " + storeDir, e);
        }
    }
}
