package dev.sluice.core.journal;

import java.util.List;
import java.util.NavigableMap;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueStore;

/**
 * After a tailer ends: did it read everything? A damaged record header can look like the end of the data (a zero
 * header, or one marked incomplete) and Chronicle's tailer then simply stops. So, for every cycle file of the
 * queue, the records the tailer saw are compared with what the writer recorded in the file's own header: its
 * excerpt count, and its write position (where the last complete record starts). Fewer records, or a complete
 * record starting after the end of the last one read, means the reading stopped early: reported as a
 * {@link JournalCorruption} that stopped there. Cold path; not thread-safe.
 */
final class JournalCompleteness {
    private final SingleChronicleQueue queue;
    private final ExcerptTailer tailer;
    private final NavigableMap<Integer, long[]> readByCycle;
    private final List<JournalCorruption> corruptions;

    JournalCompleteness(ChronicleQueue queue, ExcerptTailer tailer, NavigableMap<Integer, long[]> readByCycle,
                        List<JournalCorruption> corruptions) {
        this.queue = (SingleChronicleQueue) queue;
        this.tailer = tailer;
        this.readByCycle = readByCycle;
        this.corruptions = corruptions;
    }

    void check() {
        int first = queue.firstCycle();
        int last = queue.lastCycle();
        if (first > last) {
            return;
        }
        for (long c : queue.listCyclesBetween(first, last)) {
            int cycle = (int) c;
            long[] seen = readByCycle.get(cycle);
            long read = seen == null ? 0 : seen[0];
            long end = seen == null ? -1 : seen[1];
            long expected = tailer.excerptsInCycle(cycle);
            SingleChronicleQueueStore store = queue.storeForCycle(cycle, queue.epoch(), false, null);
            if (store == null) {
                continue;
            }
            String file = store.file().getName();
            long writePosition;
            try {
                writePosition = store.writePosition();
            } finally {
                queue.closeStore(store);
            }
            if (read < expected) {
                corruptions.add(new JournalCorruption(file, read, end, "reading stopped after " + read + " of the "
                    + expected + " records its header counts", true));
            } else if (seen != null && writePosition >= end) {
                corruptions.add(new JournalCorruption(file, read, end, "reading stopped at byte " + end
                    + ", but its header records a complete record at byte " + writePosition, true));
            } else if (seen == null && expected == 0 && writePosition > 0) {
                corruptions.add(new JournalCorruption(file, 0, -1, "no record could be read, but its header records"
                    + " a complete record at byte " + writePosition, true));
            }
        }
    }
}
