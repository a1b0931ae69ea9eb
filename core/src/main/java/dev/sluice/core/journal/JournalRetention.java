package dev.sluice.core.journal;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import net.openhft.chronicle.queue.RollCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes cycle files older than the retention window. Chronicle names each cycle's file by its start time in the
 * roll cycle's pattern (UTC), which sorts as the cycles do, so names are compared, never parsed. Runs when a new
 * cycle starts (once an hour): a failure is logged, never thrown, because a full disk is better reported by the
 * writes themselves. Used by the writer's owning thread only.
 */
final class JournalRetention {
    private static final Logger LOG = LoggerFactory.getLogger(JournalRetention.class);
    private static final String SUFFIX = ".cq4";

    private final Path directory;
    private final RollCycle rollCycle;
    private final int retainCycles;
    private final DateTimeFormatter names;

    JournalRetention(Path directory, RollCycle rollCycle, int retainCycles) {
        this.directory = directory;
        this.rollCycle = rollCycle;
        this.retainCycles = retainCycles;
        this.names = DateTimeFormatter.ofPattern(rollCycle.format()).withZone(ZoneOffset.UTC);
    }

    /** The file name (without suffix) of a cycle. */
    String nameOf(int cycle) {
        return names.format(Instant.ofEpochMilli((long) cycle * rollCycle.lengthInMillis() + rollCycle.defaultEpoch()));
    }

    /** Deletes the files of cycles before {@code currentCycle - retainCycles + 1}; returns how many. */
    int apply(int currentCycle) {
        if (retainCycles == 0) {
            return 0;
        }
        String oldestKept = nameOf(currentCycle - retainCycles + 1);
        int deleted = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*" + SUFFIX)) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                name = name.substring(0, name.length() - SUFFIX.length());
                if (name.length() == oldestKept.length() && name.compareTo(oldestKept) < 0) {
                    Files.deleteIfExists(file);
                    deleted++;
                }
            }
        } catch (IOException e) {
            LOG.warn("journal retention could not delete old cycles in {}: {}", directory, e.toString());
        }
        return deleted;
    }
}
