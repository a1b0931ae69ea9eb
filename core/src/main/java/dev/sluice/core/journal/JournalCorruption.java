package dev.sluice.core.journal;

/**
 * One damaged place in a journal: the file, the record's number within it and its byte position, and what is
 * wrong. A reader that finds one either skips that record (its Chronicle frame was intact, its content was not) or
 * stops there (the frame itself cannot be trusted); {@link #stopped} says which. Immutable.
 *
 * @param file     the {@code .cq4} file's name ({@code ?} when Chronicle could not say).
 * @param record   the record's number within its file, from 0 (-1: unknown).
 * @param position the byte offset of the record's content in the file (-1: unknown).
 * @param problem  what is wrong, naming the field and the figures that do not fit.
 * @param stopped  true when reading stopped here, so that records after it (if any) were not read.
 */
public record JournalCorruption(String file, long record, long position, String problem, boolean stopped) {
    @Override
    public String toString() {
        return file + (record >= 0 ? " record " + record : "") + (position >= 0 ? " (byte " + position + ")" : "")
            + ": " + problem + (stopped ? "; reading stopped here" : "; record skipped");
    }
}
