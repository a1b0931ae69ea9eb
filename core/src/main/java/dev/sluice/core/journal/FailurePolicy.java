package dev.sluice.core.journal;

/** What admission does when the journal cannot record (unwritable directory, full disk). */
public enum FailurePolicy {
    /** Admission goes on without the journal: the failure is logged once and every lost record is counted. */
    CONTINUE,
    /**
     * Admission stops: new arrivals are refused with 503 {@code journal_unavailable} (through
     * {@link dev.sluice.core.host.SchedulerObserver#arrivalVeto()}); lifecycles already live run to their end.
     * Opening a journal that cannot be written fails at once.
     */
    FAIL_CLOSED
}
