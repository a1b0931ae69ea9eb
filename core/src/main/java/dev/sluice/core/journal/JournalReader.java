package dev.sluice.core.journal;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Consumer;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * Reads a journal directory from its first record to its last complete one, read-only (reading never changes
 * the files, even of a journal still being written). A torn tail, the record a killed writer had begun, is not
 * complete and so is never returned. A record of a type this version does not know (a newer writer's) is skipped
 * and counted ({@link #undecodable}).
 *
 * <p>The reader trusts nothing in the files. A record whose content does not fit its layout is skipped and
 * reported; a frame Chronicle cannot read (it throws, or faults on a truncated mapping) stops the reading there,
 * reported; and when the tailer ends, the reader checks that it reached every record the writer recorded having
 * written (each cycle's excerpt count and write position), so that a damaged frame that merely looks like the end
 * is reported instead of passing for it. Each report is a {@link JournalCorruption} naming the file, the record
 * and the byte. Cold path; not thread-safe.
 */
public final class JournalReader implements AutoCloseable {
    /** How long Chronicle may wait for a cycle file's header to complete (a writer creating it) before failing. */
    private static final long OPEN_TIMEOUT_MS = 2_000;
    /** Chronicle's document header: bit 31 incomplete, bit 30 metadata, the rest the length. */
    private static final int NOT_COMPLETE = 0x8000_0000;
    private static final int META_DATA = 0x4000_0000;
    private static final int LENGTH_MASK = 0x3FFF_FFFF;

    private final ChronicleQueue queue;
    private final List<JournalCorruption> corruptions = new ArrayList<>();
    /** Per cycle read: records seen (decoded or not) and the end of the last one. */
    private final TreeMap<Integer, long[]> readByCycle = new TreeMap<>();
    private long undecodable;
    private boolean closed;

    /** {@code queue}: {@code null} when a file's own header is damaged, so that nothing can be read. */
    private JournalReader(ChronicleQueue queue, List<JournalCorruption> found) {
        this.queue = queue;
        corruptions.addAll(found);
    }

    /**
     * Opens the journal in {@code directory}. An empty {@code .cq4} file is not an error here: it is reported as a
     * corruption ({@link #corruptions}), as it holds no header Chronicle could check.
     *
     * @throws JournalException when the directory does not exist or holds no journal files.
     */
    public static JournalReader open(Path directory) throws JournalException {
        if (!Files.isDirectory(directory)) {
            throw new JournalException("no journal in " + directory.toAbsolutePath() + ": not a directory", null);
        }
        List<JournalCorruption> found = new ArrayList<>();
        boolean any = false;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*.cq4")) {
            for (Path file : files) {
                any = true;
                String problem = fileHeaderProblem(file);
                if (problem != null) {
                    found.add(new JournalCorruption(file.getFileName().toString(), -1, 0, problem, true));
                }
            }
        } catch (IOException e) {
            throw JournalException.of("cannot read the journal in directory", directory, e);
        }
        if (!any) {
            throw new JournalException("no journal in " + directory.toAbsolutePath()
                + ": it holds no journal files (*.cq4)", null);
        }
        if (!found.isEmpty()) {
            // Chronicle would wait for a writer to finish the damaged header, then fail: nothing to read.
            return new JournalReader(null, found);
        }
        try {
            // A file whose header never completes would make Chronicle wait for a writer: not for long.
            return new JournalReader(SingleChronicleQueueBuilder.binary(directory).readOnly(true)
                .rollCycle(RollCycles.FAST_HOURLY).timeoutMS(OPEN_TIMEOUT_MS).build(), found);
        } catch (RuntimeException | InternalError e) {
            throw JournalException.of("cannot read the journal in directory", directory, e);
        }
    }

    /**
     * Feeds every complete, decodable record, in order, to {@code sink}; afterwards {@link #corruptions} lists what
     * was skipped or where reading stopped. An exception thrown by {@code sink} is the caller's and propagates. On
     * a journal still being written, the records appended while reading may or may not be read: the check is
     * against what the files accounted for when reading began.
     */
    public void forEach(Consumer<JournalRecord> sink) {
        if (queue == null) {
            return;
        }
        boolean stopped = false;
        try (ExcerptTailer tailer = queue.createTailer()) {
            // What the files account for before reading: a live writer only adds to it while the tailer reads.
            JournalCompleteness expected = JournalCompleteness.expect(queue);
            stopped = drain(tailer, sink);
            if (!stopped) {
                expected.check(readByCycle, corruptions);
            }
        } catch (SinkFailure e) {
            throw e.failure;
        } catch (RuntimeException | InternalError e) {
            if (!stopped) {
                corruptions.add(new JournalCorruption("?", -1, -1, "cannot finish reading: "
                    + JournalException.rootCause(e), true));
            }
        }
    }

    /** Carries the sink's own failure past the catch for Chronicle's. */
    private static final class SinkFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient RuntimeException failure;

        SinkFailure(RuntimeException failure) {
            super(null, null, false, false);
            this.failure = failure;
        }
    }

    private static void feed(Consumer<JournalRecord> sink, JournalRecord record) {
        try {
            sink.accept(record);
        } catch (RuntimeException e) {
            throw new SinkFailure(e);
        }
    }

    /** Reads until the tailer ends; true when it stopped at damage instead. */
    private boolean drain(ExcerptTailer tailer, Consumer<JournalRecord> sink) {
        while (true) {
            Next next = next(tailer);
            if (next == Next.END) {
                return false;
            }
            if (next == Next.STOPPED) {
                return true;
            }
            if (next.record != null) {
                feed(sink, next.record);
            }
        }
    }

    /** What one step of the tailer gave: a record ({@code null}: skipped), the end, or a stop at corruption. */
    private record Next(JournalRecord record) {
        static final Next END = new Next(null);
        static final Next STOPPED = new Next(null);
        static final Next SKIPPED = new Next(null);
    }

    private Next next(ExcerptTailer tailer) {
        try (DocumentContext dc = tailer.readingDocument()) {
            if (!dc.isPresent()) {
                return Next.END;
            }
            if (dc.isMetaData()) {
                return Next.SKIPPED;
            }
            Bytes<?> bytes = dc.wire().bytes();
            long position = bytes.readPosition();
            long[] seen = readByCycle.computeIfAbsent(tailer.cycle(), c -> new long[2]);
            seen[0]++;
            seen[1] = bytes.readLimit();
            return new Next(decode(bytes, tailer, position));
        } catch (RuntimeException | InternalError e) {
            corruptions.add(new JournalCorruption(fileName(tailer), sequence(tailer), -1,
                "Chronicle cannot read the next record: " + JournalException.rootCause(e), true));
            return Next.STOPPED;
        }
    }

    /**
     * Why a {@code .cq4} file cannot be a journal file, or {@code null}: every one starts with Chronicle's own header,
     * a complete metadata document that fits in the file.
     */
    private static String fileHeaderProblem(Path file) throws IOException {
        long size = Files.size(file);
        if (size == 0) {
            return "the file is empty (0 bytes): a journal file starts with Chronicle's header";
        }
        if (size < Integer.BYTES) {
            return "the file is " + size + " bytes long, too short for Chronicle's header";
        }
        ByteBuffer first = ByteBuffer.allocate(Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            channel.read(first, 0);
        }
        int header = first.getInt(0);
        int length = header & LENGTH_MASK;
        if ((header & NOT_COMPLETE) != 0 || (header & META_DATA) == 0 || length == 0
            || Integer.BYTES + (long) length > size) {
            return String.format("Chronicle's file header is damaged (its first word reads 0x%08x in a file of %d"
                + " bytes)", header, size);
        }
        return null;
    }

    /** Every complete, decodable record, in order. */
    public List<JournalRecord> readAll() {
        List<JournalRecord> records = new ArrayList<>();
        forEach(records::add);
        return records;
    }

    /** Records skipped because their type is unknown to this version (a newer writer's). */
    public long undecodable() {
        return undecodable;
    }

    /**
     * The damaged records skipped and the place reading stopped, if it did, in file order; empty when every record
     * the writer wrote was read (after {@link #forEach} or {@link #readAll}).
     */
    public List<JournalCorruption> corruptions() {
        return List.copyOf(corruptions);
    }

    private JournalRecord decode(Bytes<?> bytes, ExcerptTailer tailer, long position) {
        try {
            JournalRecord record = RecordDecoder.decode(bytes);
            if (record == null) {
                undecodable++;
            }
            return record;
        } catch (RuntimeException e) {
            String type = recordType(bytes, position);
            corruptions.add(new JournalCorruption(fileName(tailer), sequence(tailer), position,
                (type == null ? "" : type + ": ") + (e instanceof CorruptRecordException ? e.getMessage()
                    : "the record does not fit its layout (" + JournalException.rootCause(e) + ")"), false));
            return null;
        }
    }

    private static String recordType(Bytes<?> bytes, long position) {
        RecordType type = RecordType.of(bytes.readByte(position));
        return type == null ? null : type.name();
    }

    static String fileName(ExcerptTailer tailer) {
        try {
            File file = tailer.currentFile();
            return file == null ? "?" : file.getName();
        } catch (RuntimeException e) {
            return "?";
        }
    }

    private long sequence(ExcerptTailer tailer) {
        try {
            return tailer.index() == 0 ? -1 : queue.rollCycle().toSequenceNumber(tailer.index());
        } catch (RuntimeException e) {
            return -1;
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            if (queue != null) {
                queue.close();
            }
        }
    }
}
