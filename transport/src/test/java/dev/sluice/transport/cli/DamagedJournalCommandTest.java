package dev.sluice.transport.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.journal.JournalReader;
import dev.sluice.core.journal.JournalRecord;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code journal show / stats / verify} and {@code replay} on a damaged demo journal: each names the damaged record
 * (file, record number, byte) and exits 3; none crashes, none exits 0.
 */
class DamagedJournalCommandTest {
    @TempDir
    static Path tmp;

    private static Path journal;
    private static String cq4;
    /** Where the first arrival's prompt-block count is, and where the tenth record's Chronicle header is. */
    private static int countAt;
    private static int tenthHeaderAt;
    private StringWriter out = new StringWriter();
    private StringWriter err = new StringWriter();

    @BeforeAll
    static void recordADemo() throws Exception {
        journal = tmp.resolve("journal");
        DemoJournals.record(journal, "3s");
        try (Stream<Path> files = Files.list(journal)) {
            cq4 = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".cq4")).findFirst()
                .orElseThrow();
        }
        List<JournalRecord> records;
        try (JournalReader reader = JournalReader.open(journal)) {
            records = reader.readAll();
        }
        try (ChronicleQueue queue = SingleChronicleQueueBuilder.binary(journal).readOnly(true)
                .rollCycle(RollCycles.FAST_HOURLY).build();
             ExcerptTailer tailer = queue.createTailer()) {
            for (int i = 0; countAt == 0 || i <= 10; i++) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    Bytes<?> bytes = dc.wire().bytes();
                    if (i == 10) {
                        tenthHeaderAt = (int) bytes.readPosition() - Integer.BYTES;
                    }
                    if (countAt == 0 && records.get(i) instanceof JournalRecord.Arrived arrived) {
                        // The count, its hashes, then the client's label (a short string: one length byte; null: 2).
                        String label = arrived.request().clientRequestId();
                        int labelBytes = label == null ? 2 : 1 + label.getBytes(StandardCharsets.UTF_8).length;
                        countAt = (int) (bytes.readLimit() - labelBytes - Integer.BYTES
                            - (long) Long.BYTES * arrived.promptBlockHashes().length);
                    }
                }
            }
        }
    }

    private int run(String... args) {
        out = new StringWriter();
        err = new StringWriter();
        CommandLine cli = SluiceMain.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        return cli.execute(args);
    }

    /** A copy of the demo journal whose data file is {@code damage} applied to its bytes. */
    private static Path damaged(String name, java.util.function.UnaryOperator<byte[]> damage) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve(name));
        Files.copy(journal.resolve("metadata.cq4t"), dir.resolve("metadata.cq4t"));
        byte[] bytes = Files.readAllBytes(journal.resolve(cq4));
        int end = bytes.length;
        while (end > 0 && bytes[end - 1] == 0) {
            end--;
        }
        // Chronicle reads a file cut 64 KiB past its data as well as its preallocated 80 MiB.
        Files.write(dir.resolve(cq4), damage.apply(Arrays.copyOf(bytes, end + 65_536)));
        return dir;
    }

    private static byte[] putInt(byte[] bytes, int at, int value) {
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(at, value);
        return bytes;
    }

    @Test
    void shouldNameTheRecordWhoseCountExceedsItsBytesInEveryCommand() throws IOException {
        String dir = damaged("count", b -> putInt(b, countAt, Integer.MAX_VALUE)).toString();
        String where = cq4 + " record ";
        for (String command : List.of("show", "stats")) {
            assertEquals(3, run("journal", command, dir), command + ": " + out + err);
            assertTrue(err.toString().contains("is damaged: 1 problem") && err.toString().contains(where)
                && err.toString().contains("ARRIVED: a count of 2147483647 hashes (8 bytes each), but"), err::toString);
            assertTrue(out.toString().contains("lifecycle"), command + " prints what it could read: " + out);
        }
        assertEquals(3, run("journal", "verify", dir), out + "" + err);
        assertTrue(out.toString().contains("the journal is damaged: 1 problems") && out.toString().contains(where)
            && out.toString().contains("record skipped"), out::toString);
        assertEquals(3, run("replay", dir, "--verify"), out + "" + err);
        assertTrue(err.toString().contains("not replaying a damaged journal"), err::toString);
    }

    @Test
    void shouldNotPassAZeroLengthJournalFile() throws IOException {
        String dir = damaged("empty", b -> new byte[0]).toString();
        assertEquals(3, run("journal", "verify", dir), out + "" + err);
        assertTrue(out.toString().contains(cq4 + " (byte 0): the file is empty (0 bytes)"), out::toString);
        assertEquals(3, run("journal", "stats", dir), out + "" + err);
    }

    @Test
    void shouldNotMistakeAZeroedRecordHeaderForTheEnd() throws IOException {
        // Chronicle's tailer stops at a zero header as at the end of the data: only the file's header tells.
        String dir = damaged("zeroed", b -> putInt(b, tenthHeaderAt, 0)).toString();
        assertEquals(3, run("journal", "verify", dir), out + "" + err);
        assertTrue(out.toString().contains(cq4 + " record 10") && out.toString().contains("reading stopped after 10"
            + " of the"), out::toString);
        assertEquals(3, run("replay", dir, "--verify"), out + "" + err);
    }

    @Test
    void shouldReportATruncatedFileWithoutCrashing() throws IOException {
        String dir = damaged("truncated", b -> Arrays.copyOf(b, tenthHeaderAt + 7)).toString();
        for (String command : List.of("show", "stats", "verify")) {
            assertEquals(3, run("journal", command, dir), command + ": " + out + err);
        }
        assertEquals(3, run("replay", dir, "--verify"), out + "" + err);
    }
}
