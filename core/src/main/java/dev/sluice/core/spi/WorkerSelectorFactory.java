package dev.sluice.core.spi;

import dev.sluice.core.api.WorkerSelectorContext;

/**
 * Creates one worker selector per model router and role, when the router is built (not per request). Each
 * instance owns its state.
 */
@FunctionalInterface
public interface WorkerSelectorFactory {
    WorkerSelector create(WorkerSelectorContext context);
}
