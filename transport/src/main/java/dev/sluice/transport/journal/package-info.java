/**
 * Reading a journal for people: runs and lifecycles ({@link dev.sluice.transport.journal.JournalRun}), timelines,
 * statistics per policy class and outcome, and the lifecycle invariants. Used by {@code sluice journal}. Cold
 * path, single-threaded.
 */
package dev.sluice.transport.journal;
