package dev.sluice.core.journal;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;

/**
 * Notices, through the file system's change events (inotify on Linux), that the journal's current cycle file or its
 * directory was deleted. Chronicle keeps appending to the memory-mapped file of a deleted path without any error,
 * so without this watch every later record would vanish with no failure reported. Costs the writer one volatile
 * read per record; the events are read on a daemon thread named {@code sluice-journal-watch} (plus the JDK's own
 * watcher thread). Records appended between the deletion and the event (milliseconds) are lost uncounted.
 *
 * <p>Thread-safe: {@link #current} is set by the writer's thread, {@link #lost} read by any.
 */
final class JournalWatch implements AutoCloseable {
    private final Path directory;
    private final WatchService service;
    private final Thread thread;
    private volatile Path current;
    private volatile NoSuchFileException lost;

    private JournalWatch(Path directory, WatchService service, Path current) {
        this.directory = directory;
        this.service = service;
        this.current = current;
        this.thread = Thread.ofPlatform().daemon().name("sluice-journal-watch").unstarted(this::run);
    }

    /**
     * Starts watching {@code directory} for the deletion of {@code currentFile} or of the directory itself.
     *
     * @throws IOException the file system offers no watch here (the caller goes on unwatched).
     */
    static JournalWatch start(Path directory, Path currentFile) throws IOException {
        WatchService service = directory.getFileSystem().newWatchService();
        try {
            directory.register(service, StandardWatchEventKinds.ENTRY_DELETE);
        } catch (IOException | RuntimeException e) {
            service.close();
            throw e;
        }
        JournalWatch watch = new JournalWatch(directory, service, currentFile);
        watch.thread.start();
        return watch;
    }

    /** The writer moved on to a new cycle's file; deleting older ones (retention does) is no longer a loss. */
    void current(Path file) {
        current = file;
    }

    /** What was deleted, as a {@link NoSuchFileException} naming it; {@code null} while nothing was. */
    NoSuchFileException lost() {
        return lost;
    }

    private void run() {
        try {
            while (lost == null) {
                WatchKey key = service.take();
                for (WatchEvent<?> event : key.pollEvents()) {
                    Path file = current;
                    if (event.kind() == StandardWatchEventKinds.OVERFLOW ? !Files.exists(file)
                        : file.getFileName().equals(event.context())) {
                        lost = new NoSuchFileException(file.toString(), null,
                            "deleted while the journal was writing it");
                    }
                }
                if (!key.reset() && lost == null) {
                    lost = new NoSuchFileException(directory.toString(), null,
                        "the journal directory was deleted while the journal was writing in it");
                }
            }
        } catch (ClosedWatchServiceException | InterruptedException e) {
            // Closed: the writer is closing.
        }
    }

    /** Stops the watch; idempotent. */
    @Override
    public void close() {
        try {
            service.close();
        } catch (IOException e) {
            // Nothing is left to watch; the thread ends on the closed service.
        }
    }
}
