package dev.sluice.core.journal;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;

/** Where each record of an intact single-file journal lies: [its Chronicle header, its end), in file bytes. */
final class JournalRecordRanges {
    private JournalRecordRanges() {
    }

    static long[][] of(Path directory) {
        List<long[]> ranges = new ArrayList<>();
        try (ChronicleQueue queue = SingleChronicleQueueBuilder.binary(directory).readOnly(true)
                .rollCycle(RollCycles.FAST_HOURLY).build();
             ExcerptTailer tailer = queue.createTailer()) {
            while (true) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        return ranges.toArray(long[][]::new);
                    }
                    Bytes<?> bytes = dc.wire().bytes();
                    ranges.add(new long[] {bytes.readPosition() - Integer.BYTES, bytes.readLimit()});
                }
            }
        }
    }
}
