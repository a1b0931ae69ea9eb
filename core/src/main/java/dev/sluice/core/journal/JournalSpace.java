package dev.sluice.core.journal;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The free space the journal keeps in reserve on its file system. Chronicle writes records into memory-mapped,
 * sparse files: on a full file system the write to a new page raises SIGBUS, which the JVM turns into an
 * asynchronous {@code InternalError} ("a fault occurred in an unsafe memory access operation") that surfaces at its
 * next safepoint poll — in practice inside the record's write, but not guaranteed to be. So the writer fails cleanly,
 * between records, once the space left falls below the reserve: checked at opening and then after every
 * {@value #CHECK_EVERY_BYTES} bytes written (one {@code statfs}, not one per record). Another process that fills the
 * disk faster than that between two checks still meets the mapped-write fault. Owned by the writer's thread.
 */
final class JournalSpace {
    /** Bytes appended between two looks at the free space. */
    static final long CHECK_EVERY_BYTES = 64 * 1024;

    private final Path directory;
    private final long reserveBytes;
    private final FileStore store;
    private long unchecked;

    private JournalSpace(Path directory, long reserveBytes, FileStore store) {
        this.directory = directory;
        this.reserveBytes = reserveBytes;
        this.store = store;
    }

    /** The reserve of {@code directory}'s file system; 0 bytes never checks. */
    static JournalSpace of(Path directory, long reserveBytes) throws IOException {
        return new JournalSpace(directory, reserveBytes, reserveBytes == 0 ? null : Files.getFileStore(directory));
    }

    /** Counts bytes appended; true once enough have been since the last look at the free space. */
    boolean wrote(long bytes) {
        unchecked += bytes;
        return store != null && unchecked >= CHECK_EVERY_BYTES;
    }

    /**
     * Looks at the free space now.
     *
     * @return {@code null} while at or above the reserve; else the shortage, naming the directory and both sizes.
     */
    FileSystemException shortage() {
        unchecked = 0;
        if (store == null) {
            return null;
        }
        try {
            long free = store.getUsableSpace();
            return free >= reserveBytes ? null : new FileSystemException(directory.toString(), null, "only " + free
                + " bytes free on its file system, below the journal's reserve of " + reserveBytes + " bytes");
        } catch (IOException e) {
            return new FileSystemException(directory.toString(), null, "cannot read the free space: " + e);
        }
    }

    /** For a failure's message: the free space now, e.g. {@code 0 bytes free on its file system}. */
    static String describe(Path directory) {
        try {
            return Files.getFileStore(directory).getUsableSpace() + " bytes free on its file system";
        } catch (IOException | RuntimeException e) {
            return "free space unknown (" + e + ")";
        }
    }
}
