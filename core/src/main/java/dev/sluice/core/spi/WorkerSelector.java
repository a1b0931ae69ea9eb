package dev.sluice.core.spi;

import dev.sluice.core.api.SelectionInputs;

/**
 * Picks the worker rank for one dispatched request among eligible candidates (dynamo-mocker.md §7.4). The router
 * filters eligibility, calls {@link #select} and then books the request on the chosen worker; the selector only
 * decides. A selector instance belongs to one model router and is called on its scheduler thread only, so it may
 * keep reusable scratch state without locks; it must not block or do I/O.
 *
 * <p>A selector that throws fails that one request (sanitized, counted); the scheduler keeps serving.
 */
@FunctionalInterface
public interface WorkerSelector {
    /** {@link #select} found no acceptable worker. */
    int NONE = -1;

    /**
     * The index of the chosen candidate in {@code inputs}, or {@link #NONE} when none is acceptable (the router
     * then treats the request as having no eligible worker).
     */
    int select(SelectionInputs inputs);
}
