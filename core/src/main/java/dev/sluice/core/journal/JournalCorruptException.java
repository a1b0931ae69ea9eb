package dev.sluice.core.journal;

import java.util.List;

/**
 * The journal could be opened but is damaged: the records listed were skipped, or reading stopped at one of them.
 * The message names the directory and the first problem; {@link #corruptions} lists them all; {@link #partial} is
 * what could be read (typed by the reader that threw, e.g. the runs of {@code JournalRun.read}).
 */
public final class JournalCorruptException extends JournalException {
    private static final long serialVersionUID = 1L;

    private final transient List<JournalCorruption> corruptions;
    private final transient Object partial;

    public JournalCorruptException(String directory, List<JournalCorruption> corruptions, Object partial) {
        super("the journal in " + directory + " is damaged: " + corruptions.size() + " problem"
            + (corruptions.size() == 1 ? "" : "s") + ", the first: " + corruptions.get(0), null);
        this.corruptions = List.copyOf(corruptions);
        this.partial = partial;
    }

    /** Every damaged record skipped, and where reading stopped if it did. */
    public List<JournalCorruption> corruptions() {
        return corruptions;
    }

    /** What was read despite the damage (the thrower's type; may be {@code null}). */
    public Object partial() {
        return partial;
    }
}
