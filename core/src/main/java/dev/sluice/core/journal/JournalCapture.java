package dev.sluice.core.journal;

import java.util.ArrayList;
import java.util.List;
import net.openhft.chronicle.bytes.Bytes;

/**
 * An in-memory journal: encodes each callback exactly as {@link JournalWriter} does, then decodes it into a
 * {@link JournalRecord}. Replays compare its records with a recorded journal's; tests use it to check the layout
 * without files. Allocates per record; not for production. Called on the scheduler thread only.
 */
public final class JournalCapture extends EncodingObserver {
    private final Bytes<?> buffer = Bytes.allocateElasticOnHeap(256);
    private final List<JournalRecord> records = new ArrayList<>();

    /** @param overloadStatus the status capacity rejections answer, as the router is configured. */
    public JournalCapture(int overloadStatus) {
        super(overloadStatus);
    }

    @Override
    Bytes<?> begin() {
        buffer.clear();
        return buffer;
    }

    @Override
    void commit() {
        records.add(RecordDecoder.decode(buffer));
    }

    @Override
    void abandon(Throwable failure) {
        throw new IllegalStateException("capture failed to encode a record", failure);
    }

    /** The records so far, in order (a live list: copy it to keep it). */
    public List<JournalRecord> records() {
        return records;
    }
}
