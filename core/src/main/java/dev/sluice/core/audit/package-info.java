/**
 * Reading a journal for people: runs and lifecycles ({@link dev.sluice.core.audit.JournalRun}), timelines,
 * statistics per policy class and outcome, and the lifecycle invariants. Used by {@code sluice journal}. Cold
 * path, single-threaded.
 */
package dev.sluice.core.audit;
