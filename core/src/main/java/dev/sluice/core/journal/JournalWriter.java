package dev.sluice.core.journal;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.ErrorClass;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.core.time.TimeProvider;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admission journal: a {@link dev.sluice.core.host.SchedulerObserver} that appends one record per input and
 * decision to a Chronicle Queue (one appender, hourly roll cycles, retention) in the layout of {@code FORMAT.md}.
 * Install it with {@code RouterContext.observer(...)}, alone or first in a
 * {@link dev.sluice.core.host.CompositeObserver}; close it after the router.
 *
 * <p>Records are written straight into the memory-mapped queue file: a record is in the page cache when the
 * callback returns, so it survives the death of the process (not of the machine). A failure to write (full disk,
 * directory gone) is counted, logged once, and then handled by the {@link FailurePolicy}: admission continues
 * and later records are dropped and counted, or new arrivals are refused with 503 {@code journal_unavailable}.
 * The journal stays unavailable until restart. A deleted directory raises no write error (the mapped file lives
 * on unlinked), so a {@link JournalWatch} reports it: the failure then starts with the next record or arrival.
 *
 * <p>A record goes into the hourly file of its own time: the wall clock when the journal opened plus the router's
 * clock since (a {@link RecordClock}), so writing one reads no clock.
 *
 * <p>The appender is owned by the duty cycle: records are written only from observer callbacks, on the scheduler
 * thread or, with {@code scheduler_idle: combine}, on whichever thread holds the cycle, one at a time. Opening
 * writes the header on the opening thread, then hands the appender over. Counters may be read from any thread
 * (approximate there).
 */
public final class JournalWriter extends EncodingObserver implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JournalWriter.class);

    private final Path directory;
    private final FailurePolicy policy;
    private final ChronicleQueue queue;
    private final ExcerptAppender appender;
    private final JournalRetention retention;
    private final JournalSpace space;
    private final RecordClock clock;
    private JournalWatch watch;
    private DocumentContext document;
    private long recordStart;
    private int cycle;
    private volatile boolean available;
    private volatile AdmissionError veto;
    private volatile Throwable lastFailure;
    // Plain fields: the duty cycle is the only writer, and a fence per record would cost more than the write.
    private long written;
    private long dropped;
    private long failures;
    private boolean closed;

    private JournalWriter(JournalContext context, JournalHeader header, ChronicleQueue queue,
                          ExcerptAppender appender, JournalSpace space, RecordClock clock, Throwable openFailure) {
        super(header.overloadStatus());
        this.directory = context.directory().toAbsolutePath();
        this.policy = context.failurePolicy();
        this.queue = queue;
        this.appender = appender;
        this.retention = new JournalRetention(directory, context.rollCycle(), context.retainCycles());
        this.space = space;
        this.clock = clock;
        this.lastNs = header.schedulerNs();
        this.available = openFailure == null;
        if (openFailure != null) {
            failed(openFailure);
        }
    }

    /**
     * Opens (or creates) the journal in {@code context.directory()} and writes the header.
     *
     * @throws JournalException when the directory cannot be created or written and the policy is
     *                          {@link FailurePolicy#FAIL_CLOSED}; the message names the directory and the cause.
     *                          With {@link FailurePolicy#CONTINUE} the failure is logged and a writer that drops
     *                          (and counts) every record is returned instead.
     */
    public static JournalWriter open(JournalContext context, JournalHeader header) throws JournalException {
        Path directory = context.directory();
        ChronicleQueue queue = null;
        try {
            probe(directory);
            JournalSpace space = JournalSpace.of(directory.toAbsolutePath(), context.minFreeBytes());
            FileSystemException shortage = space.shortage();
            if (shortage != null) {
                throw shortage;
            }
            long openedAt = epochNanos(Instant.now());
            RecordClock clock = new RecordClock(openedAt / 1_000_000L, header.schedulerNs());
            queue = SingleChronicleQueueBuilder.binary(directory).rollCycle(context.rollCycle()).timeProvider(clock)
                .build();
            ExcerptAppender appender = queue.createAppender();
            try (DocumentContext dc = appender.writingDocument()) {
                Bytes<?> out = dc.wire().bytes();
                out.writeByte(RecordType.HEADER.code());
                out.writeLong(header.schedulerNs());
                RecordEncoder.header(out, header, openedAt);
            }
            // The duty cycle, not this thread, appends from now on: on the scheduler thread, or with scheduler_idle
            // combine on whichever thread holds the cycle, one at a time, each handing over to the next with a
            // happens-before edge. Chronicle's own check would tie the appender to the first of them.
            appender.singleThreadedCheckDisabled(true);
            JournalWriter writer = new JournalWriter(context, header, queue, appender, space, clock, null);
            writer.cycle = appender.cycle();
            writer.retention.apply(writer.cycle);
            writer.watch = watch(directory, appender);
            return writer;
        } catch (IOException | RuntimeException | InternalError e) {
            closeQuietly(null, queue);
            JournalException failure = reported(directory, e);
            if (context.failurePolicy() == FailurePolicy.FAIL_CLOSED) {
                throw failure;
            }
            return new JournalWriter(context, header, null, null, null, null, failure);
        }
    }

    /** A watch for the deletion of the journal's files, or {@code null} (logged) where the file system has none. */
    private static JournalWatch watch(Path directory, ExcerptAppender appender) {
        try {
            return JournalWatch.start(directory.toAbsolutePath(), appender.currentFile().toPath().toAbsolutePath());
        } catch (IOException | RuntimeException e) {
            LOG.warn("cannot watch the journal directory {} ({}): if it is deleted, records are lost unnoticed "
                + "until the next roll cycle", directory.toAbsolutePath(), e.toString());
            return null;
        }
    }

    /** Fails early, with the operating system's reason, when the directory cannot be created or written. */
    private static void probe(Path directory) throws IOException {
        Files.createDirectories(directory);
        Path probe = Files.createTempFile(directory, ".probe", ".tmp");
        Files.delete(probe);
    }

    private static long epochNanos(Instant now) {
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    @Override
    Bytes<?> begin() {
        if (!available || deleted()) {
            dropped++;
            return null;
        }
        try {
            clock.at(lastNs);
            document = appender.writingDocument();
            Bytes<?> out = document.wire().bytes();
            recordStart = out.writePosition();
            return out;
        } catch (RuntimeException | InternalError e) {
            document = null;
            dropped++;
            failed(e);
            return null;
        }
    }

    @Override
    void commit() {
        DocumentContext dc = document;
        document = null;
        long size = dc.wire().bytes().writePosition() - recordStart;
        dc.close();
        written++;
        if (space.wrote(size)) {
            FileSystemException shortage = space.shortage();
            if (shortage != null) {
                failed(shortage);
            }
        }
        int now = appender.cycle();
        if (now != cycle) {
            // A new hourly file started: the only moment old cycles can fall out of the retention window.
            cycle = now;
            if (watch != null) {
                watch.current(appender.currentFile().toPath().toAbsolutePath());
            }
            retention.apply(now);
        }
    }

    @Override
    void abandon(Throwable failure) {
        DocumentContext dc = document;
        document = null;
        if (dc != null) {
            try {
                dc.rollbackOnClose();
                dc.close();
            } catch (RuntimeException | InternalError ignored) {
                // The queue is already failing; the original failure is the one to report.
            }
        }
        dropped++;
        failed(failure);
    }

    /** Whether the watch saw the journal's file deleted; the first time, that is this writer's failure. */
    private boolean deleted() {
        Throwable lost = watch == null ? null : watch.lost();
        if (lost != null && available) {
            failed(lost);
        }
        return lost != null;
    }

    private void failed(Throwable failure) {
        failures++;
        if (!available && lastFailure != null) {
            return;
        }
        available = false;
        JournalException reported = reported(directory, failure);
        lastFailure = reported;
        veto = AdmissionError.of(ErrorClass.UNAVAILABLE).reason("journal_unavailable")
            .publicMessage("Admission journal unavailable").diagnostic(reported.getMessage());
        if (policy == FailurePolicy.CONTINUE) {
            LOG.error("{}; admission continues without the journal, lost records are counted", reported.getMessage(),
                failure);
        } else {
            LOG.error("{}; failing closed: new arrivals are refused with 503 journal_unavailable",
                reported.getMessage(), failure);
        }
    }

    /** The failure as reported: the directory and the root cause, and how full the disk is after a mapped fault. */
    private static JournalException reported(Path directory, Throwable failure) {
        if (failure instanceof JournalException j) {
            return j;
        }
        JournalException reported = JournalException.of("cannot write the journal in directory", directory, failure);
        if (failure instanceof InternalError) {
            // What the JVM makes of SIGBUS on a mapped page, most often a full disk: say how full it is.
            return new JournalException(reported.getMessage() + " (a write to the memory-mapped journal file "
                + "faulted; " + JournalSpace.describe(directory) + ")", failure);
        }
        return reported;
    }

    /**
     * Chronicle's clock, which picks the file a record goes into: the wall clock when the journal opened plus the
     * router's clock elapsed to the record being written. Chronicle asks for the time at every record; the scheduler
     * has already read its clock for the record, so this reads none (Chronicle's own reading of the wall clock took
     * 9 % of the CPU samples of a journaled lifecycle in JournaledAdmissionBench). The router's clock is monotonic,
     * so a record's file follows its own time even if the wall clock is set back or forward while the journal is
     * open; and this clock never goes back, even for a record stamped before the last one. Set and read by the
     * thread that writes records (the appender's owner).
     */
    static final class RecordClock implements TimeProvider {
        private final long openedAtMs;
        private final long openedAtNs;
        private long nowMs;

        RecordClock(long openedAtMs, long openedAtNs) {
            this.openedAtMs = openedAtMs;
            this.openedAtNs = openedAtNs;
            this.nowMs = openedAtMs;
        }

        /** The record about to be written was stamped {@code schedulerNs} by the router's clock. */
        void at(long schedulerNs) {
            long ms = openedAtMs + Math.floorDiv(schedulerNs - openedAtNs, 1_000_000L);
            if (ms > nowMs) {
                nowMs = ms;
            }
        }

        @Override
        public long currentTimeMillis() {
            return nowMs;
        }
    }

    /** Refuses arrivals once recording failed, if the policy is to fail closed. */
    @Override
    public AdmissionError arrivalVeto() {
        deleted();
        return available || policy == FailurePolicy.CONTINUE ? null : veto;
    }

    public Path directory() {
        return directory;
    }

    /** False once a write (or the opening) failed, or the journal's file was deleted; any thread. */
    public boolean available() {
        return available && (watch == null || watch.lost() == null);
    }

    /** Records appended, the header (and the closing record) excluded. */
    public long recordsWritten() {
        return written;
    }

    /** Records lost because the journal was unavailable. */
    public long recordsDropped() {
        return dropped;
    }

    /** Failed writes (and a failed opening). */
    public long failures() {
        return failures;
    }

    /** The first failure, naming the directory and the cause; {@code null} while healthy. */
    public Throwable lastFailure() {
        return lastFailure;
    }

    /** The underlying queue (tests use it to break the journal on purpose); {@code null} if it never opened. */
    ChronicleQueue queue() {
        return queue;
    }

    /**
     * Records the clean close (a {@code CLOSED} record, unless the journal had failed), then closes the appender and
     * the queue; idempotent. Call after the router has closed: the calling thread takes the appender over.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (available()) {
            writeClosed();
        }
        available = false;
        if (watch != null) {
            watch.close();
        }
        closeQuietly(appender, queue);
    }

    private void writeClosed() {
        try {
            appender.singleThreadedCheckReset();
            try (DocumentContext dc = appender.writingDocument()) {
                Bytes<?> out = dc.wire().bytes();
                out.writeByte(RecordType.CLOSED.code());
                out.writeLong(lastNs);
            }
        } catch (RuntimeException | InternalError e) {
            LOG.warn("cannot record the clean close of the journal in {}: {}", directory, e.toString());
        }
    }

    /** Closing a failed queue (full disk, directory gone) may fail in turn: logged, never thrown. */
    private static void closeQuietly(ExcerptAppender appender, ChronicleQueue queue) {
        try {
            if (appender != null) {
                appender.close();
            }
        } catch (RuntimeException | InternalError e) {
            LOG.warn("closing the journal's appender failed: {}", e.toString());
        }
        try {
            if (queue != null) {
                queue.close();
            }
        } catch (RuntimeException | InternalError e) {
            LOG.warn("closing the journal's queue failed: {}", e.toString());
        }
    }
}
