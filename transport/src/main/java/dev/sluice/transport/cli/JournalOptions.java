package dev.sluice.transport.cli;

import dev.sluice.core.journal.FailurePolicy;
import dev.sluice.core.journal.JournalContext;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** The journal options shared by {@code demo} and {@code serve}. */
final class JournalOptions {
    @Option(names = "--journal-dir", paramLabel = "DIR",
        description = "Journal every input and decision here (default: a new timestamped folder under "
            + "./sluice-journal/).")
    Path journalDir;

    @Option(names = "--no-journal", description = "Do not journal.")
    boolean noJournal;

    @Option(names = "--journal-on-failure", defaultValue = "continue", paramLabel = "POLICY",
        description = "When the journal cannot write: continue (admission goes on, lost records are counted) or "
            + "fail_closed (new arrivals are refused with 503 journal_unavailable) (default: ${DEFAULT-VALUE}).")
    FailurePolicy journalFailure;

    @Option(names = "--journal-min-free", defaultValue = "67108864", paramLabel = "BYTES",
        description = "Treat the journal as failed (see --journal-on-failure) when its file system has less free "
            + "space than this; 0 turns the check off (default: ${DEFAULT-VALUE}).")
    long journalMinFree;

    void validate(CommandLine commandLine) {
        if (noJournal && journalDir != null) {
            throw new CommandLine.ParameterException(commandLine, "--no-journal and --journal-dir exclude each other");
        }
        if (journalMinFree < 0) {
            throw new CommandLine.ParameterException(commandLine, "--journal-min-free must be >= 0 bytes, was "
                + journalMinFree);
        }
    }

    /** Where and how to journal, or {@code null} with {@code --no-journal}. */
    JournalContext context() {
        return noJournal ? null : new JournalContext(journalDir != null ? journalDir : defaultDirectory())
            .failurePolicy(journalFailure).minFreeBytes(journalMinFree);
    }

    /** {@code ./sluice-journal/<UTC timestamp>}, a new folder per run (git-ignored). */
    static Path defaultDirectory() {
        return Path.of("sluice-journal", DemoCommand.stamp());
    }
}
