package dev.sluice.core.journal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueStore;

/**
 * Did a tailer read everything? A damaged record header can look like the end of the data (a zero header, or one
 * marked incomplete) and Chronicle's tailer then simply stops. So, before reading, {@link #expect} notes for every
 * cycle file what the writer recorded in the file's own header: its excerpt count, and its write position (where
 * its last complete record starts); after reading, {@link #check} compares. Fewer records, or no record read past
 * that write position, means the reading stopped early: reported as a {@link JournalCorruption} that stopped there.
 * A live writer only adds records while the tailer reads, so taking the figures first keeps the check sound on a
 * journal still being written. Cold path; not thread-safe.
 */
final class JournalCompleteness {
    /** One cycle file as its header accounted for it. */
    private record Cycle(int cycle, String file, long excerpts, long writePosition) {
    }

    private final List<Cycle> cycles;

    private JournalCompleteness(List<Cycle> cycles) {
        this.cycles = cycles;
    }

    /** The figures of every cycle file of {@code queue}, now. */
    static JournalCompleteness expect(ChronicleQueue chronicle) {
        SingleChronicleQueue queue = (SingleChronicleQueue) chronicle;
        List<Cycle> cycles = new ArrayList<>();
        int first = queue.firstCycle();
        int last = queue.lastCycle();
        if (first > last) {
            return new JournalCompleteness(cycles);
        }
        try (ExcerptTailer counter = queue.createTailer()) {
            for (long c : queue.listCyclesBetween(first, last)) {
                int cycle = (int) c;
                long excerpts = counter.excerptsInCycle(cycle);
                SingleChronicleQueueStore store = queue.storeForCycle(cycle, queue.epoch(), false, null);
                if (store == null) {
                    continue;
                }
                try {
                    cycles.add(new Cycle(cycle, store.file().getName(), excerpts, store.writePosition()));
                } finally {
                    queue.closeStore(store);
                }
            }
        }
        return new JournalCompleteness(cycles);
    }

    /**
     * Adds to {@code corruptions} each cycle file the tailer did not read to its end; {@code readByCycle}: per cycle,
     * the records the tailer saw and the end of the last one.
     */
    void check(Map<Integer, long[]> readByCycle, List<JournalCorruption> corruptions) {
        for (Cycle expected : cycles) {
            long[] seen = readByCycle.get(expected.cycle);
            long read = seen == null ? 0 : seen[0];
            long end = seen == null ? -1 : seen[1];
            if (read < expected.excerpts) {
                corruptions.add(new JournalCorruption(expected.file, read, end, "reading stopped after " + read
                    + " of the " + expected.excerpts + " records its header counts", true));
            } else if (seen != null && expected.writePosition >= end) {
                corruptions.add(new JournalCorruption(expected.file, read, end, "reading stopped at byte " + end
                    + ", but its header records a complete record at byte " + expected.writePosition, true));
            }
        }
    }
}
