package dev.sluice.transport.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A tmpfs of a few hundred KiB mounted on a new directory, to fill a disk on purpose. Mounting needs root (or
 * CAP_SYS_ADMIN) and a kernel or container that allows it; where it fails, {@link #mount} aborts the test as
 * skipped and says why. {@link #close} unmounts, lazily if a memory mapping still holds the mount. Not
 * thread-safe; idempotent close.
 */
public final class TinyTmpfs implements AutoCloseable {
    private final Path path;
    private boolean mounted = true;

    private TinyTmpfs(Path path) {
        this.path = path;
    }

    /** Mounts a tmpfs of {@code size} (as {@code mount -o size=}, e.g. {@code 1m}) on {@code directory}. */
    public static TinyTmpfs mount(Path directory, String size) throws IOException {
        Files.createDirectories(directory);
        String[] result = run(List.of("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", directory.toString()));
        assumeTrue(result[0].equals("0"), () -> "skipped: cannot mount a tmpfs on " + directory + " (needs root and "
            + "a kernel or container that allows mount; exit " + result[0] + "): " + result[1].strip());
        return new TinyTmpfs(directory);
    }

    public Path path() {
        return path;
    }

    @Override
    public void close() throws IOException {
        if (!mounted) {
            return;
        }
        mounted = false;
        // Chronicle releases its mappings on a background thread: a busy mount is detached, then freed.
        if (!run(List.of("umount", path.toString()))[0].equals("0")) {
            String[] lazy = run(List.of("umount", "-l", path.toString()));
            if (!lazy[0].equals("0")) {
                throw new IOException("cannot unmount the test tmpfs at " + path + ": " + lazy[1].strip());
            }
        }
    }

    /** Exit status and output of a command; {@code "none"} when it cannot be started. */
    private static String[] run(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return new String[] {"timeout", String.join(" ", command) + " did not finish in 20 s"};
            }
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return new String[] {String.valueOf(process.exitValue()), output};
        } catch (IOException e) {
            return new String[] {"none", e.toString()};
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new String[] {"interrupted", String.join(" ", command) + " was interrupted"};
        }
    }
}
