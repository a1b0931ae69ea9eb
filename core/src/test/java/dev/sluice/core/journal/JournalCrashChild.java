package dev.sluice.core.journal;

import dev.sluice.core.testing.SteppedRouter;
import java.nio.file.Path;

/**
 * The child process of {@link JournalCrashTest}: journals {@code count} requests, begins one more record and
 * leaves it unfinished (the torn tail), prints {@code READY <records written>}, then waits to be killed.
 */
public final class JournalCrashChild {
    private JournalCrashChild() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int count = Integer.parseInt(args[1]);
        JournalWriter journal = JournalWriter.open(new JournalContext(dir), JournalFixtures.header(0));
        SteppedRouter r = JournalFixtures.router(journal);
        r.worker(1, 1_000_000);
        for (int i = 0; i < count; i++) {
            long id = r.submit("crash-" + i, 10);
            r.router.completed(id, 20);
            r.step();
        }
        net.openhft.chronicle.bytes.Bytes<?> torn = journal.begin();
        torn.writeByte(RecordType.ARRIVED.code());
        torn.writeLong(Long.MAX_VALUE);
        System.out.println("READY " + journal.recordsWritten());
        System.out.flush();
        Thread.sleep(60_000);
    }
}
