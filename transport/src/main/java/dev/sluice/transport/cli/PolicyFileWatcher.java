package dev.sluice.transport.cli;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code serve --watch-config}: watches the router-policy file's directory ({@link WatchService}: an editor that
 * saves by writing a new file and renaming it over the old one, or a Kubernetes ConfigMap that swaps a symbolic
 * link, never modifies the watched file itself) and asks for a reload once the directory has been quiet for
 * {@link #QUIET_MS} after a change, so a file written in several steps is read once, whole. Any change in the
 * directory counts; the reload itself leaves a file whose text did not change alone. Runs on one daemon thread;
 * {@link #close} stops it.
 */
final class PolicyFileWatcher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PolicyFileWatcher.class);
    /** How long the directory must be quiet after a change before the file is read. */
    static final long QUIET_MS = 200;

    private final WatchService watch;
    private final Thread thread;

    private PolicyFileWatcher(WatchService watch, Path file, Runnable reload) {
        this.watch = watch;
        this.thread = Thread.ofPlatform().daemon().name("sluice-policy-watch").unstarted(() -> run(file, reload));
    }

    /**
     * Starts watching {@code file}'s directory.
     *
     * @throws IOException the directory cannot be watched (the message names it).
     */
    static PolicyFileWatcher start(Path file, Runnable reload) throws IOException {
        Path directory = file.toAbsolutePath().getParent();
        WatchService watch = directory.getFileSystem().newWatchService();
        try {
            directory.register(watch, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY,
                StandardWatchEventKinds.ENTRY_DELETE);
        } catch (IOException e) {
            watch.close();
            throw new IOException("cannot watch " + directory + ": " + e.getMessage(), e);
        }
        PolicyFileWatcher watcher = new PolicyFileWatcher(watch, file, reload);
        watcher.thread.start();
        return watcher;
    }

    private void run(Path file, Runnable reload) {
        try {
            while (true) {
                WatchKey key = watch.take();
                key.pollEvents();
                key.reset();
                // Wait until the writer is done: each further change restarts the quiet period.
                WatchKey more;
                while ((more = watch.poll(QUIET_MS, TimeUnit.MILLISECONDS)) != null) {
                    more.pollEvents();
                    more.reset();
                }
                try {
                    reload.run();
                } catch (RuntimeException e) {
                    LOG.error("reloading {} failed; watching on", file, e);
                }
            }
        } catch (ClosedWatchServiceException | InterruptedException e) {
            // Closed: the server is stopping.
        }
    }

    @Override
    public void close() {
        try {
            watch.close();
        } catch (IOException e) {
            LOG.warn("closing the policy file watch failed", e);
        }
    }
}
