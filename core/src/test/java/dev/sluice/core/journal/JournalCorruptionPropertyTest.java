package dev.sluice.core.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sluice.core.audit.JournalRun;
import dev.sluice.core.audit.JournalStats;
import dev.sluice.core.audit.JournalVerifier;
import dev.sluice.core.audit.TimelinePrinter;
import dev.sluice.core.kv.KvEvent;
import dev.sluice.core.testing.SteppedRouter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damages a real journal at random (fixed seeds) and runs every reader on it: {@code JournalRun.read} (what journal
 * show, stats, verify and replay read through), the verifier, the stats and the timeline printer. None may throw
 * (an {@code OutOfMemoryError}, an {@code InternalError} from a faulting mapping, anything), and a reader that
 * reports an intact journal must have read every record the undamaged file holds, each equal to the original
 * unless the damage fell inside that very record (there is no checksum: a changed string is still a string).
 */
class JournalCorruptionPropertyTest {
    private static final int ITERATIONS = 400;
    private static final int[] LARGE = {Integer.MAX_VALUE, Integer.MIN_VALUE, -1, 1 << 30, 0x40000000 | 64,
        0x80000000 | 64, 1 << 20, 65_536, 0};

    @TempDir
    static Path tmp;

    private static byte[] data;
    private static byte[] metadata;
    private static String dataName;
    /** The undamaged records, in order, and the byte range [from, to) of each (its Chronicle header included). */
    private static List<String> original;
    private static long[][] ranges;
    private static int dataEnd;

    @BeforeAll
    static void recordJournal() throws Exception {
        Path dir = tmp.resolve("intact");
        for (int run = 0; run < 3; run++) {
            try (JournalWriter journal = JournalWriter.open(new JournalContext(dir), JournalFixtures.header(run));
                 SteppedRouter r = JournalFixtures.router(journal)) {
                JournalFixtures.scenario(r);
            }
        }
        Path cq4;
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> all = files.filter(p -> p.toString().endsWith(".cq4")).toList();
            assertEquals(1, all.size(), "one cycle file (the runs were written within a second)");
            cq4 = all.get(0);
        }
        byte[] full = Files.readAllBytes(cq4);
        dataEnd = full.length;
        while (dataEnd > 0 && full[dataEnd - 1] == 0) {
            dataEnd--;
        }
        // The file's zero tail is Chronicle's preallocation: 64 KiB of it is enough to read, and keeps copies cheap.
        data = Arrays.copyOf(full, Math.min(full.length, (dataEnd + 65_535) / 65_536 * 65_536 + 65_536));
        metadata = Files.readAllBytes(dir.resolve("metadata.cq4t"));
        dataName = cq4.getFileName().toString();
        original = canonical(JournalRun.read(write(0, data), null));
        ranges = JournalRecordRanges.of(dir);
        assertEquals(original.size(), ranges.length);
        assertTrue(original.size() > 60, "records " + original.size());
    }

    @Test
    @Timeout(120)
    void shouldReportDamageOrReadEveryRecordButNeverCrash() throws IOException {
        int damaged = 0;
        for (int seed = 1; seed <= ITERATIONS; seed++) {
            Random random = new Random(seed);
            byte[] copy = data.clone();
            long[] hit = new long[2];
            String mutation = mutate(random, copy, hit);
            if (hit[1] == Long.MAX_VALUE) {
                copy = Arrays.copyOf(copy, (int) hit[0]);
            }
            try {
                long started = System.nanoTime();
                damaged += check(write(seed, copy), hit) ? 0 : 1;
                long ms = (System.nanoTime() - started) / 1_000_000;
                if (ms > 500) {
                    System.err.println("slow seed " + seed + " (" + mutation + "): " + ms + " ms");
                }
            } catch (Throwable t) {
                fail("seed " + seed + " (" + mutation + "): " + t, t);
            }
        }
        assertTrue(damaged > ITERATIONS / 4, "most mutations are reported as damage: " + damaged);
    }

    /** True when the reader reported an intact journal (then asserted complete), false when it reported damage. */
    private static boolean check(Path dir, long[] hit) throws IOException {
        List<JournalRun> runs;
        boolean intact;
        long[] unknown = new long[1];
        try {
            runs = JournalRun.read(dir, unknown);
            intact = unknown[0] == 0;
        } catch (JournalCorruptException e) {
            assertTrue(!e.corruptions().isEmpty());
            @SuppressWarnings("unchecked")
            List<JournalRun> partial = (List<JournalRun>) e.partial();
            runs = partial;
            intact = false;
        } catch (JournalException e) {
            return false;
        }
        readEverything(runs);
        if (intact) {
            List<String> read = canonical(runs);
            assertEquals(original.size(), read.size(), "an intact result has every record");
            for (int i = 0; i < read.size(); i++) {
                boolean touched = ranges[i][0] < hit[1] && hit[0] < ranges[i][1];
                if (!touched) {
                    assertEquals(original.get(i), read.get(i), "record " + i + ", undamaged");
                }
            }
        }
        return intact;
    }

    /** What journal show, stats and verify do with the runs read. */
    private static void readEverything(List<JournalRun> runs) {
        PrintWriter sink = new PrintWriter(Writer.nullWriter());
        JournalStats stats = new JournalStats();
        for (JournalRun run : runs) {
            JournalVerifier.verify(run);
            JournalVerifier.unfinished(run);
            stats.add(run);
            TimelinePrinter.printRun(run, sink);
            run.lifecycles().values().forEach(lifecycle -> TimelinePrinter.print(run, lifecycle, sink));
        }
        stats.print(sink);
    }

    /**
     * Damages {@code copy}; {@code hit} receives the byte range changed. A truncation sets {@code hit[1]} to
     * {@code Long.MAX_VALUE} and leaves the cutting, at {@code hit[0]}, to the caller.
     */
    private static String mutate(Random random, byte[] copy, long[] hit) {
        int kind = random.nextInt(10);
        int records = (int) ranges[0][0];
        if (kind < 3) {
            int flips = 1 + random.nextInt(4);
            hit[0] = Long.MAX_VALUE;
            for (int i = 0; i < flips; i++) {
                int at = random.nextInt(8) == 0 ? random.nextInt(records) : records + random.nextInt(dataEnd + 16
                    - records);
                copy[at] ^= (byte) (1 + random.nextInt(255));
                hit[0] = Math.min(hit[0], at);
                hit[1] = Math.max(hit[1], at + 1);
            }
            return flips + " byte flips from byte " + hit[0];
        }
        if (kind < 8) {
            // Within a record, where its counts and lengths are, rather than anywhere in the file.
            long[] record = ranges[random.nextInt(ranges.length)];
            int at = (int) (record[0] + random.nextInt((int) (record[1] - record[0])));
            int value = random.nextBoolean() ? LARGE[random.nextInt(LARGE.length)] : random.nextInt();
            ByteBuffer.wrap(copy).order(ByteOrder.LITTLE_ENDIAN).putInt(at, value);
            hit[0] = at;
            hit[1] = at + 4;
            return "int " + value + " at byte " + at;
        }
        int length = kind == 8 ? 0 : random.nextInt(dataEnd);
        hit[0] = length;
        hit[1] = Long.MAX_VALUE;
        return "truncated to " + length + " bytes";
    }

    private static Path write(int seed, byte[] cq4) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("copy-" + seed));
        Files.write(dir.resolve("metadata.cq4t"), metadata);
        Files.write(dir.resolve(dataName == null ? "x.cq4" : dataName), cq4);
        return dir;
    }

    /** The records of every run, headers included, as comparable text (arrays by content). */
    private static List<String> canonical(List<JournalRun> runs) {
        List<String> records = new ArrayList<>();
        for (JournalRun run : runs) {
            if (run.header() != null) {
                records.add(run.header().toString());
            }
            for (JournalRecord record : run.records()) {
                records.add(record instanceof JournalRecord.KvEventRecord kv ? kv.timeNs() + " " + kv(kv.event())
                    : record.toString());
            }
        }
        return records;
    }

    private static String kv(KvEvent event) {
        return switch (event) {
            case KvEvent.Stored s -> "stored " + s.worker() + " " + s.eventId() + " " + s.hasParent() + " "
                + s.parentSequenceHash() + Arrays.toString(s.sequenceHashes()) + Arrays.toString(s.localHashes());
            case KvEvent.Removed r -> "removed " + r.worker() + " " + r.eventId() + Arrays.toString(
                r.sequenceHashes());
            case KvEvent.Cleared c -> "cleared " + c.worker() + " " + c.eventId();
        };
    }
}
