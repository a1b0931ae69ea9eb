package dev.sluice.transport.cli;

import dev.sluice.core.audit.JournalRun;
import dev.sluice.core.journal.JournalCorruptException;
import dev.sluice.core.journal.JournalCorruption;
import dev.sluice.core.journal.JournalException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine;

/**
 * What the journal commands read: the runs, and the damage found on the way (empty for an intact journal). A
 * damaged journal is never a clean result: every command that reads one says so on stderr, naming each damaged
 * record's file, record number and byte, and exits {@value #DAMAGED}. Cold path.
 */
record JournalReading(List<JournalRun> runs, List<JournalCorruption> damage) {
    /** The exit code of a command that read a damaged journal. */
    static final int DAMAGED = 3;
    /** How many problems stderr lists before it summarises the rest. */
    private static final int LISTED = 20;

    boolean damaged() {
        return !damage.isEmpty();
    }

    /**
     * Reads the runs in {@code directory}; warns on stderr of skipped records of unknown types and of damage;
     * {@code null} (after printing why) when there is no journal to read.
     */
    static JournalReading read(CommandLine.Model.CommandSpec spec, Path directory) {
        PrintWriter err = spec.commandLine().getErr();
        long[] undecodable = new long[1];
        JournalReading reading;
        try {
            reading = new JournalReading(JournalRun.read(directory, undecodable), List.of());
        } catch (JournalCorruptException e) {
            @SuppressWarnings("unchecked")
            List<JournalRun> partial = (List<JournalRun>) e.partial();
            reading = new JournalReading(partial == null ? List.of() : partial, e.corruptions());
            err.println("sluice: " + e.getMessage());
            for (int i = 0; i < e.corruptions().size() && i < LISTED; i++) {
                err.println("  " + e.corruptions().get(i));
            }
            if (e.corruptions().size() > LISTED) {
                err.println("  ... and " + (e.corruptions().size() - LISTED) + " more (journal verify lists all)");
            }
        } catch (JournalException e) {
            err.println("sluice: " + e.getMessage());
            err.flush();
            return null;
        }
        if (undecodable[0] > 0) {
            err.printf("sluice: warning: %d records of a type this version does not know were skipped (written by a"
                + " newer sluice?)%n", undecodable[0]);
        }
        err.flush();
        return reading;
    }
}
