package dev.sluice.core.journal;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * Reads a journal directory from its first record to its last complete one, read-only (reading never changes
 * the files, even of a journal still being written). A torn tail, the record a killed writer had begun, is not
 * complete and so is never returned; a record this version cannot decode (a newer writer's type, a truncated
 * body) is skipped and counted. Cold path; not thread-safe.
 */
public final class JournalReader implements AutoCloseable {
    private final ChronicleQueue queue;
    private long undecodable;
    private boolean closed;

    private JournalReader(ChronicleQueue queue) {
        this.queue = queue;
    }

    /**
     * Opens the journal in {@code directory}.
     *
     * @throws JournalException when the directory does not exist or holds no journal files.
     */
    public static JournalReader open(Path directory) throws JournalException {
        if (!Files.isDirectory(directory)) {
            throw new JournalException("no journal in " + directory.toAbsolutePath() + ": not a directory", null);
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*.cq4")) {
            if (!files.iterator().hasNext()) {
                throw new JournalException("no journal in " + directory.toAbsolutePath()
                    + ": it holds no journal files (*.cq4)", null);
            }
        } catch (IOException e) {
            throw JournalException.of("cannot read the journal in directory", directory, e);
        }
        try {
            return new JournalReader(SingleChronicleQueueBuilder.binary(directory).readOnly(true)
                .rollCycle(net.openhft.chronicle.queue.RollCycles.FAST_HOURLY).build());
        } catch (RuntimeException e) {
            throw JournalException.of("cannot read the journal in directory", directory, e);
        }
    }

    /** Feeds every complete record, in order, to {@code sink}. */
    public void forEach(Consumer<JournalRecord> sink) {
        try (ExcerptTailer tailer = queue.createTailer()) {
            while (true) {
                JournalRecord record;
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        return;
                    }
                    if (dc.isMetaData()) {
                        continue;
                    }
                    record = decode(dc.wire().bytes());
                }
                if (record != null) {
                    sink.accept(record);
                }
            }
        }
    }

    /** Every complete record, in order. */
    public List<JournalRecord> readAll() {
        List<JournalRecord> records = new ArrayList<>();
        forEach(records::add);
        return records;
    }

    /** Records skipped because they could not be decoded. */
    public long undecodable() {
        return undecodable;
    }

    private JournalRecord decode(Bytes<?> bytes) {
        try {
            JournalRecord record = RecordDecoder.decode(bytes);
            if (record == null) {
                undecodable++;
            }
            return record;
        } catch (RuntimeException e) {
            undecodable++;
            return null;
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            queue.close();
        }
    }
}
