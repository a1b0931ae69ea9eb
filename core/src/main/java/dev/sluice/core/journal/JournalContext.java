package dev.sluice.core.journal;

import java.nio.file.Path;
import java.util.Objects;
import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.RollCycles;

/**
 * Where and how a {@link JournalWriter} records, set fluently. Files roll hourly. Defaults: the last 168 cycles
 * (a week) kept, fail closed, 64 MiB kept free on the file system. Not thread-safe; configure, then open.
 */
public final class JournalContext {
    private final Path directory;
    private static final RollCycle ROLL_CYCLE = RollCycles.FAST_HOURLY;
    private int retainCycles = 168;
    private FailurePolicy failurePolicy = FailurePolicy.FAIL_CLOSED;
    private long minFreeBytes = 64L << 20;

    public JournalContext(Path directory) {
        this.directory = Objects.requireNonNull(directory, "directory");
    }

    public Path directory() {
        return directory;
    }

    /** How often a new file starts: hourly (the reader expects hourly files). */
    RollCycle rollCycle() {
        return ROLL_CYCLE;
    }

    /** Cycles kept, the current one included; older cycle files are deleted when a cycle starts. 0 keeps all. */
    public JournalContext retainCycles(int cycles) {
        if (cycles < 0) {
            throw new IllegalArgumentException("retainCycles must be >= 0, was " + cycles);
        }
        this.retainCycles = cycles;
        return this;
    }

    public int retainCycles() {
        return retainCycles;
    }

    /** Continue admission without the journal, or refuse arrivals, when recording fails. */
    public JournalContext failurePolicy(FailurePolicy policy) {
        this.failurePolicy = Objects.requireNonNull(policy, "failurePolicy");
        return this;
    }

    public FailurePolicy failurePolicy() {
        return failurePolicy;
    }

    /**
     * The journal fails (as by its {@link FailurePolicy}) rather than write when its file system has less free space
     * than this: writing a memory-mapped file on a full disk faults. 0 turns the check off.
     */
    public JournalContext minFreeBytes(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("minFreeBytes must be >= 0, was " + bytes);
        }
        this.minFreeBytes = bytes;
        return this;
    }

    public long minFreeBytes() {
        return minFreeBytes;
    }
}
